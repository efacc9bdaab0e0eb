import { extractCredentials } from '#domain/auctions/reads.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { auctionsReadContext } from '#runtime/contexts.ts';

/** GET /api/2.5/auctions/{auctionId}/extract_credentials: id, owner and the stored transfer token hash (admin). */
export const handler = httpHandler(async (req) => ({
  data: await extractCredentials(auctionsReadContext(req), req.params.auctionId),
}));
