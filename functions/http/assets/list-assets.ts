import { assetTypeDescriptor } from '#domain/assets/types/catalog.ts';
import { listFeed } from '#domain/listing/listing.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { feedReader } from '#store/feeds.ts';

/** GET /api/2.4/assets, /api/0.1/assets: the dateModified feed of the route's asset type, one Query per page. */
export const handler = httpHandler(async (req) => ({
  extra: await listFeed(feedReader, {
    feed: assetTypeDescriptor(req.type).feed,
    query: req.query,
    path: req.path,
    baseUrl: req.baseUrl,
  }),
}));
