import { listRevisions } from '#domain/history/revisions.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { CALENDAR_KIND, CALENDAR_NAME } from '#store/calendar-repository.ts';
import { revisionReader } from '#store/revisions.ts';

/** GET /api/calendar/revisions (public): the calendar's change log, oldest first (none until its first change). */
export const handler = httpHandler(async (req) => ({
  extra: await listRevisions(revisionReader, {
    kind: CALENDAR_KIND,
    notFound: 'calendar',
    id: CALENDAR_NAME,
    idPattern: /^ukraine$/,
    query: req.query,
    principal: req.principal,
    path: req.path,
    baseUrl: req.baseUrl,
  }),
}));
