import { auctionType } from '#domain/auctions/catalog.ts';
import { listFeed } from '#domain/listing/listing.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { feedReader } from '#store/feeds.ts';

/** GET /api/2.5/auctions: the type's dateModified feed (no drafts), one Query per page. */
export const handler = httpHandler(async (req) => ({
  extra: await listFeed(feedReader, {
    feed: auctionType(req.type ?? '').feed,
    query: req.query,
    path: req.path,
    baseUrl: req.baseUrl,
  }),
}));
