import { bots } from '../functions/bots.ts';
import { roomLambdas } from '../functions/room/lambdas.ts';
import { routes } from '../functions/routes.ts';
import { bundleParts } from './lambda-bundles.ts';

/**
 * The size budget of each Lambda's bundle (minified index.mjs, validators apart), one place for `npm run bench` and
 * test/infra/bundles.test.ts: most requests of a quiet deployment meet a cold function, so what a bundle holds is
 * latency. A read ≤ 60 KB, a write ≤ 120 KB (a bot, and a room Lambda that writes, is a write). An auction write is
 * built once per auction type (lib/lambda-bundles.ts), so it carries one type's definition.
 */
export const READ_BUDGET_KB = 60;
export const WRITE_BUDGET_KB = 120;
/**
 * The room's timer task and bot (`posts`: they end rooms and post their results): ≤ 150 KB. They serve a room of
 * either type, found by a timer or a sweep of the room's work index, so they cannot be built per type as the HTTP
 * writes are: they carry both room engines (domain/room: ~12 KB), both auction definitions (the results they post
 * are applied by the type's awarding, as the API's `POST .../auction` does: ~26 KB), the change log the post writes,
 * the room's store and the observers' publish. One type alone would still be ~125 KB. Measured 143.9 KB (bot) and
 * 141.1 KB (transition) on 2026-11-28.
 */
export const ROOM_POSTING_BUDGET_KB = 150;

const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** Whether a Lambda writes (its budget is a write's) or only reads. */
export function bundleKind(bundle: string): 'read' | 'write' {
  const { handler } = bundleParts(bundle);
  // The bots and the migrations Lambda (functions/ops: it rewrites items and appends to the journal) write.
  if (bots.some((b) => b.handler === handler) || handler.startsWith('ops/')) return 'write';
  const room = roomLambdas.find((l) => l.handler === handler);
  if (room) return room.table === 'rw' ? 'write' : 'read';
  return routes.some((r) => r.handler === handler && WRITE_METHODS.has(r.method)) ? 'write' : 'read';
}

/** The budget of a Lambda's bundle (its name: a handler, or `<handler>.<type>` for one built per type), KB. */
export const bundleBudgetKb = (bundle: string): number =>
  roomLambdas.some((l) => l.handler === bundle && l.posts)
    ? ROOM_POSTING_BUDGET_KB
    : bundleKind(bundle) === 'write'
      ? WRITE_BUDGET_KB
      : READ_BUDGET_KB;
