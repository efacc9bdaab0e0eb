import { config } from '#platform/config.ts';
import { installLocalMiddleware, type LocalMiddleware } from './client.ts';

/**
 * Fault injection for tests and `npm start` (never in AWS: the local gateway installs it, the client runs it only
 * outside Lambda, and no bundle carries this module): a seeded share of DynamoDB calls fails as DynamoDB fails under
 * load — throttling, a transaction cancelled for throttling, an internal error (500), or a timeout — or, with
 * `crashAfter`, every call after the n-th fails, as if the process died there. Each fault is raised before the call reaches DynamoDB, so a failed call wrote nothing. The
 * middleware sits before the SDK's retries (step `initialize`): every injected fault reaches the service's own code,
 * which is what is under test, and no backoff slows the run (the SDK would absorb most faults in AWS).
 *
 * With `lostAnswers`, a seeded share of the answers DynamoDB gave is dropped *after* the call succeeded (a proxy or the
 * network lost it): that middleware sits inside the SDK's retries, so the SDK sends the same call again, as in AWS,
 * and meets what its first attempt already wrote (a create's `attribute_not_exists`, a counter moved twice).
 *
 * With `slowWrites`, a seeded share of the writes waits up to `maxMs` before it goes out, as when a Lambda stalls
 * (CPU, GC, a slow network) between taking its `now` and sending the write stamped with it: what a feed must survive
 * (store/feeds.ts). The wait comes before the SDK's retries, so the feeds' budget check still sees each attempt.
 *
 * Configured by AGORA_FAULTS (JSON, read on every call, so a test or `PUT /_local/faults` turns it on and off):
 * `{"share": 0.2, "seed": 42, "kinds": ["throttle", "cancelled", "internal", "timeout", "conflict"], "crashAfter": 12,
 * "lostAnswers": 0.15, "slowWrites": {"share": 0.3, "maxMs": 400}, "failWritesTo": ["JOURNAL#"]}` (the last: every write
 * naming a key with that prefix fails, an internal error).
 */
export type FaultKind = 'throttle' | 'cancelled' | 'internal' | 'timeout' | 'conflict';
/** The kinds a config without `kinds` injects; `conflict` (a transaction cancelled because another wrote one of its
 * items at once, which DynamoDB Local never does) only when asked for, and only on transactions. */
export const FAULT_KINDS: readonly FaultKind[] = ['throttle', 'cancelled', 'internal', 'timeout'];

export interface FaultConfig {
  share?: number;
  seed?: number;
  kinds?: FaultKind[];
  crashAfter?: number;
  /** Share of successful answers dropped after the call took effect (retried by the SDK). */
  lostAnswers?: number;
  /** A share of the writes held back a random time up to `maxMs` before they are sent. */
  slowWrites?: { share: number; maxMs: number };
  /** Every write naming a key that starts with one of these (`JOURNAL#`: the journal) fails, as a partition down. */
  failWritesTo?: string[];
}

/** The calls that write (their low-level names: the document client's commands send these). */
const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
]);

export interface FaultStats {
  calls: number;
  injected: Record<FaultKind | 'crash' | 'lost' | 'slow', number>;
}

interface State {
  raw: string;
  config: FaultConfig;
  random: () => number;
  calls: number;
  stats: FaultStats;
}

/** mulberry32: a small seeded generator, so a run is repeatable from its seed (the journal's simulation uses it too). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const emptyStats = (): FaultStats => ({
  calls: 0,
  injected: { throttle: 0, cancelled: 0, internal: 0, timeout: 0, conflict: 0, crash: 0, lost: 0, slow: 0 },
});

// On globalThis: the gateway and a test may load this module through different loaders; they share one state.
const holder = globalThis as unknown as { __agoraFaults?: State };

function state(): State | undefined {
  const raw = config().faults;
  if (!raw) return undefined;
  if (holder.__agoraFaults?.raw !== raw) {
    let config: FaultConfig;
    try {
      config = JSON.parse(raw) as FaultConfig;
    } catch {
      throw new Error(`AGORA_FAULTS is not JSON: ${raw}`);
    }
    holder.__agoraFaults = {
      raw,
      config,
      random: seeded(config.seed ?? 1),
      calls: 0,
      stats: holder.__agoraFaults?.stats ?? emptyStats(),
    };
  }
  return holder.__agoraFaults;
}

/** What was injected since the last reset (calls seen while faults were on, faults by kind). */
export const faultStats = (): FaultStats => holder.__agoraFaults?.stats ?? emptyStats();

export function resetFaultStats(): void {
  if (holder.__agoraFaults) holder.__agoraFaults.stats = emptyStats();
}

const failure = (name: string, message: string, status: number, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(`${message} (injected fault)`), {
    name,
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: status },
    ...extra,
  });

function fault(kind: FaultKind, command: string): Error {
  switch (kind) {
    case 'throttle':
      return failure('ThrottlingException', 'Rate of requests exceeds the allowed throughput', 400, {
        $retryable: { throttling: true },
      });
    case 'cancelled':
      return command === 'TransactWriteItemsCommand'
        ? failure(
            'TransactionCanceledException',
            'Transaction cancelled, please refer cancellation reasons for specific reasons [ThrottlingError]',
            400,
            {
              CancellationReasons: [
                {
                  Code: 'ThrottlingError',
                  Message: 'Throughput exceeds the current capacity for one or more global secondary indexes',
                },
              ],
            },
          )
        : failure(
            'ProvisionedThroughputExceededException',
            'The level of configured provisioned throughput for the table was exceeded',
            400,
            { $retryable: { throttling: true } },
          );
    case 'conflict':
      return failure(
        'TransactionCanceledException',
        'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
        400,
        { CancellationReasons: [{ Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }] },
      );
    case 'internal':
      return failure('InternalServerError', 'Internal server error', 500);
    case 'timeout':
      return failure('TimeoutError', 'Connection timed out', 0);
  }
}

/** The injector: a middleware at the head of every DynamoDB call (before the SDK's retries). */
const injector: LocalMiddleware = (next, context) => async (args) => {
  const s = state();
  if (s) {
    s.stats.calls++;
    s.calls++;
    const command = context.commandName ?? '';
    if (s.config.crashAfter !== undefined && s.calls > s.config.crashAfter) {
      s.stats.injected.crash++;
      throw failure('SimulatedCrash', 'The process stopped here', 0);
    }
    const fenced = s.config.failWritesTo;
    if (fenced?.length && WRITES.has(command)) {
      const input = JSON.stringify(args.input);
      if (fenced.some((prefix) => input.includes(`"${prefix}`))) {
        s.stats.injected.internal++;
        throw fault('internal', command);
      }
    }
    if (s.random() < (s.config.share ?? 0)) {
      const kinds = s.config.kinds?.length ? s.config.kinds : FAULT_KINDS;
      const kind = kinds[Math.floor(s.random() * kinds.length)]!;
      if (kind === 'conflict' && command !== 'TransactWriteItemsCommand') return next(args);
      s.stats.injected[kind]++;
      if (kind === 'timeout') await new Promise((resolve) => setTimeout(resolve, 20));
      throw fault(kind, command);
    }
    const slow = s.config.slowWrites;
    if (slow && WRITES.has(command) && s.random() < slow.share) {
      s.stats.injected.slow++;
      await new Promise((resolve) => setTimeout(resolve, s.random() * slow.maxMs));
    }
  }
  return next(args);
};

/** Drops a share of the answers of calls that succeeded: the SDK sees a timeout after the write and retries it. */
const answerDropper: LocalMiddleware = (next) => async (args) => {
  const result = await next(args);
  const s = state();
  if (s?.config.lostAnswers && s.random() < s.config.lostAnswers) {
    s.stats.injected.lost++;
    throw failure('TimeoutError', 'The answer was lost after the call took effect', 0);
  }
  return result;
};

/**
 * Installs the injector on every DynamoDB client of this process, the bundles' copies too (local runtime only: the
 * local gateway calls it; no Lambda bundle imports this module).
 */
export function installFaults(): void {
  installLocalMiddleware(injector, answerDropper);
}
