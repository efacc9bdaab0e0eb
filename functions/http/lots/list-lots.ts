import { listFeed } from '#domain/listing/listing.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { feedReader } from '#store/feeds.ts';

/** GET /api/0.1/lots: the dateModified feed, one Query per page. */
export const handler = httpHandler(async (req) => ({
  extra: await listFeed(feedReader, { feed: 'lots', query: req.query, path: '/api/0.1/lots', baseUrl: req.baseUrl }),
}));
