import type { Micros } from '../kernel/time.ts';

/**
 * When a failed delivery is tried again, and when to give up. Waiting is not failing: a receiver's occasional error
 * costs it seconds, so the first retries come quickly (1 s, 5 s, 15 s, 1 min) and the wait grows only while the
 * receiver keeps failing (then Standard Webhooks' advice, as Svix schedules it: 5 min, 30 min, 2 h, 5 h, then every
 * 10 h), each with ±20 % jitter so that the retries of one outage do not all come back in the same second. A receiver
 * that fails for 5 days running has its subscription disabled; its deliveries stay listed and can be replayed.
 */
const SECOND: Micros = 1_000_000;
export const RETRY_DELAYS: readonly Micros[] = [1, 5, 15, 60, 300, 1_800, 7_200, 18_000, 36_000].map((s) => s * SECOND);
/** A delivery that failed this many attempts in a row is a receiver that is down, not one that errs now and then. */
export const DOWN_AFTER_ATTEMPTS = 4;
export const JITTER = 0.2;
/** Failing this long (from the first failure with no success since) disables the subscription. */
export const GIVE_UP_AFTER: Micros = 5 * 24 * 3_600 * SECOND;
/** A `Retry-After` is honoured up to this: a receiver cannot park its deliveries for longer. */
export const MAX_RETRY_AFTER: Micros = 24 * 3_600 * SECOND;

/** The wait before the next attempt, once `attempts` attempts failed (≥ 1); `random` in [0, 1). */
export function retryDelay(attempts: number, random: number): Micros {
  const base = RETRY_DELAYS[Math.min(attempts, RETRY_DELAYS.length) - 1]!;
  return Math.round(base * (1 + JITTER * (2 * random - 1)));
}

/** A `Retry-After` header (seconds, or an HTTP date) as a wait from `now`; unreadable or absent: undefined. */
export function retryAfter(header: string | undefined, now: Micros): Micros | undefined {
  if (!header) return undefined;
  const wait = /^\d+$/.test(header.trim())
    ? Number(header.trim()) * SECOND
    : (Date.parse(header) || Number.NaN) * 1000 - now;
  return Number.isFinite(wait) ? Math.min(Math.max(wait, SECOND), MAX_RETRY_AFTER) : undefined;
}

/** What came back from one attempt: an HTTP status (and its `Retry-After`), or no answer at all (`error`). */
export interface AttemptResult {
  status?: number;
  retryAfter?: string;
  error?: string;
}

/** What follows an attempt: delivered, try again at `due`, or stop and disable the subscription. */
export type Verdict =
  | { state: 'delivered' }
  | { state: 'pending'; due: Micros }
  | { state: 'failed'; disable: 'gone' | 'failing' };

/**
 * The verdict on an attempt: 2xx is delivered; 410 Gone disables the subscription at once; 429 and 503 come back after
 * their `Retry-After` when they give one; anything else (a redirect too: none is followed) after the schedule's next
 * wait, unless the receiver has been failing for `GIVE_UP_AFTER` by then.
 */
export function verdict(
  result: AttemptResult,
  attempts: number,
  failingSince: Micros | undefined,
  now: Micros,
  random: number,
): Verdict {
  const status = result.status;
  if (status !== undefined && status >= 200 && status < 300) return { state: 'delivered' };
  if (status === 410) return { state: 'failed', disable: 'gone' };
  const asked = status === 429 || status === 503 ? retryAfter(result.retryAfter, now) : undefined;
  const due = now + (asked ?? retryDelay(attempts, random));
  if (due - (failingSince ?? now) > GIVE_UP_AFTER) return { state: 'failed', disable: 'failing' };
  return { state: 'pending', due };
}
