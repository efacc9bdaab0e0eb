import { admitBefore, intervalMs, type RateLimit, retryAfterSeconds } from '#domain/kernel/rate-limit.ts';
import { config } from '#platform/config.ts';

/**
 * Token buckets per source address kept in this process's memory (the GCRA of domain/kernel/rate-limit.ts, like the
 * per-key buckets in the table, without a write per request). For the public health check, which must stay a
 * read-only call, for reads without a known key (GET functions may only read the table), and for remembering an address the table's bucket refused, so its next requests cost no database
 * call. Per Lambda container: API Gateway's stage throttle bounds the sum. At most `capacity` addresses are kept,
 * the least recently seen forgotten first (a forgotten address starts again with a full bucket).
 */
export class AddressBuckets {
  private readonly tat = new Map<string, number>();

  constructor(
    private readonly limit: RateLimit,
    private readonly capacity = 10_000,
  ) {}

  /** Spends one request of the address: undefined when admitted, else the seconds to wait. */
  spend(address: string, nowMs = Date.now()): number | undefined {
    const wait = this.waitFor(address, nowMs);
    if (wait !== undefined) return wait;
    this.remember(address, Math.max(this.tat.get(address) ?? nowMs, nowMs) + intervalMs(this.limit));
    return undefined;
  }

  /** Seconds the address must still wait (without spending), or undefined when it would be admitted. */
  waitFor(address: string, nowMs = Date.now()): number | undefined {
    const tat = this.tat.get(address);
    return tat !== undefined && tat > admitBefore(this.limit, nowMs)
      ? retryAfterSeconds(this.limit, tat, nowMs)
      : undefined;
  }

  /** Takes the bucket's time from elsewhere (the table's bucket that refused the address). */
  remember(address: string, tat: number): void {
    this.tat.delete(address);
    this.tat.set(address, tat);
    if (this.tat.size > this.capacity) this.tat.delete(this.tat.keys().next().value!);
  }
}

/** This container's buckets of callers without a key, under the configured limit. */
let callers: { limit: RateLimit; buckets: AddressBuckets } | undefined;

/**
 * Spends one request of a keyless caller's source address under `addressRate` (the health check, reads without a
 * known key): undefined when admitted (or no limit is set), else the seconds to wait.
 */
export function spendAddress(address: string): number | undefined {
  const limit = config().addressRate;
  if (!limit) return undefined;
  if (callers?.limit !== limit) callers = { limit, buckets: new AddressBuckets(limit) };
  return callers.buckets.spend(address);
}
