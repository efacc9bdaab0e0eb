import { bots, webhookDelivery } from '../functions/bots.ts';
import { roomLambdas } from '../functions/room/lambdas.ts';
import { type RouteDefinition, routes } from '../functions/routes.ts';

/**
 * The Lambdas' bundles, by name (each a folder of lib/build.ts's output: `<name>/index.mjs`). A bundle is a handler
 * module, except for an auction write: it is built once per auction type its routes serve, named
 * `<handler>.<type>` (`http/auctions/post-bid.dgfInsider`), each holding its type's definition alone (a Lambda behind
 * /api/2.3 never meets a landlease auction: its routes answer another type's id with a 404 before any definition
 * is read). The CDK app (one function per route type already), the build, the bench and the bundled local mode all
 * name bundles here.
 */
const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const AUCTION_HANDLERS = 'http/auctions/';
const SEPARATOR = '.';

/** A handler built once per auction type its routes serve: an auction write (one type's routes alone too). */
export const builtPerType = (handler: string): boolean => {
  if (!handler.startsWith(AUCTION_HANDLERS)) return false;
  const own = routes.filter((r) => r.handler === handler);
  return own.some((r) => WRITE_METHODS.has(r.method)) && own.every((r) => r.type);
};

/** The bundle a route's Lambda runs. */
export const bundleOf = (route: Pick<RouteDefinition, 'handler' | 'type'>): string =>
  route.type && builtPerType(route.handler) ? `${route.handler}${SEPARATOR}${route.type}` : route.handler;

/** A bundle's handler module and, for one built per type, that type. */
export function bundleParts(bundle: string): { handler: string; type?: string } {
  const at = bundle.lastIndexOf(SEPARATOR);
  if (at < 0 || bundle.lastIndexOf('/') > at || !builtPerType(bundle.slice(0, at))) return { handler: bundle };
  return { handler: bundle.slice(0, at), type: bundle.slice(at + 1) };
}

/** Every Lambda's handler module (under `functions/`, no extension), each once. */
export const lambdaHandlers = (): string[] => [
  ...new Set([
    ...routes.map((r) => r.handler),
    'auth/authorizer',
    ...bots.map((b) => b.handler),
    webhookDelivery.handler,
    'ops/migrate',
    ...roomLambdas.map((l) => l.handler),
  ]),
];

/** The bundles of a handler: itself, or one per auction type it serves. */
export const bundlesOf = (handler: string): string[] =>
  builtPerType(handler) ? [...new Set(routes.filter((r) => r.handler === handler).map((r) => bundleOf(r)))] : [handler];

/** Every bundle the build writes, each once. */
export const lambdaBundles = (): string[] => lambdaHandlers().flatMap(bundlesOf);
