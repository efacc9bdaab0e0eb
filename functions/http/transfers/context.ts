import type { TransfersContext } from '#domain/transfers/transfer.ts';
import type { HttpRequest } from '#http-kit/http-handler.ts';
import { transferRepository } from '#store/transfer-repository.ts';

export const transfersContext = (req: HttpRequest): TransfersContext => ({
  principal: req.principal,
  now: req.now,
  transfers: transferRepository,
});
