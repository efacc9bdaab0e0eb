import { systemClock, type Micros } from '#domain/kernel/time.ts';

/**
 * The request clock. In AWS it is the system clock. The local runtime (never AWS) may shift it with
 * AGORA_CLOCK_OFFSET_MS so tests and sandbox users can step past a deadline without waiting.
 */
export function requestNow(): Micros {
  const offset = process.env.AGORA_LOCAL === '1' ? Number(process.env.AGORA_CLOCK_OFFSET_MS ?? 0) : 0;
  return systemClock() + Math.round(offset * 1000);
}
