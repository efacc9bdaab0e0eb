import { createLot } from '#domain/lots/commands.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { lotsContext } from './context.ts';

/** POST /api/0.1/lots: a broker creates a lot in `draft` and receives its owner and transfer tokens once. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const { lot, token, transfer } = await createLot(lotsContext(req), req.data, id);
    return { status: 201, data: lot, access: { token, transfer }, location: `/api/0.1/lots/${lot.id}` };
  }),
);
