import { getTransfer } from '#domain/transfers/transfer.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { transfersContext } from './context.ts';

/** GET /api/<v>/transfers/{transferId}: `id`, `date` and, once used, `usedFor`. */
export const handler = httpHandler(async (req) => ({
  data: await getTransfer(transfersContext(req), req.params.transferId),
}));
