import { listRevisions } from '#domain/history/revisions.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { revisionReader } from '#store/revisions.ts';

/**
 * GET .../lots/{lotId}/revisions: the lot's change log, oldest first, paged (`offset`, `limit`); one Query,
 * two when the page alone cannot tell whether it may be shown (domain/history/revisions.ts).
 */
export const handler = httpHandler(async (req) => ({
  extra: await listRevisions(revisionReader, {
    kind: 'LOT',
    notFound: 'lot_id',
    id: req.params.lotId,
    type: req.type,
    query: req.query,
    principal: req.principal,
    path: req.path,
    baseUrl: req.baseUrl,
  }),
}));
