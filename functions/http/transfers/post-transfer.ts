import { createTransfer } from '#domain/transfers/transfer.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { idempotentCreate } from '#runtime/idempotency.ts';
import { transfersContext } from './context.ts';

/** POST /api/<v>/transfers: a broker creates a transfer; its owner token and transfer token are answered once. */
export const handler = httpHandler((req) =>
  idempotentCreate(req, async (id) => {
    const { transfer, token, transferToken } = await createTransfer(transfersContext(req), id);
    return {
      status: 201,
      data: transfer,
      access: { token, transfer: transferToken },
      location: `${req.path}/${transfer.id}`,
    };
  }),
);
