import { systemClock, type Micros } from '#domain/kernel/time.ts';
import { localRuntime } from './config.ts';

/**
 * The request clock. In AWS it is the system clock. The local runtime (never AWS) may shift it (`setLocal({
 * clockOffsetMs })`) so tests and sandbox users can step past a deadline without waiting.
 */
export function requestNow(): Micros {
  const offset = localRuntime()?.clockOffsetMs ?? 0;
  return systemClock() + Math.round(offset * 1000);
}
