/**
 * A token bucket kept as one number, the GCRA way: `tat`, the theoretical arrival time (ms) at which the bucket is
 * full again. Each request moves it one emission interval (1000 / rate ms) later; a request is admitted while `tat`
 * stays within `burst` intervals of now. Equivalent to a bucket of `burst` tokens refilled at `rate` per second, but a
 * single attribute a conditional write can move without reading first. Pure: the store applies the plan.
 */
export interface RateLimit {
  /** Requests per second, sustained. */
  rate: number;
  /** Requests admitted at once from a full bucket. */
  burst: number;
}

export const intervalMs = (limit: RateLimit) => 1000 / limit.rate;

/** The latest `tat` that still admits a request now (its new `tat` would be this plus one interval). */
export const admitBefore = (limit: RateLimit, nowMs: number) => nowMs + (limit.burst - 1) * intervalMs(limit);

/** Seconds until a request would be admitted again, for `Retry-After` (at least 1). */
export const retryAfterSeconds = (limit: RateLimit, tat: number, nowMs: number) =>
  Math.max(1, Math.ceil((tat - admitBefore(limit, nowMs)) / 1000));
