import { NotFoundError } from '#domain/kernel/errors.ts';
import { httpHandler } from '#http-kit/http-handler.ts';

/** The `$default` route: unknown method and path get the 404 envelope instead of API Gateway's own body. */
export const handler = httpHandler(async () => {
  throw new NotFoundError('url');
});
