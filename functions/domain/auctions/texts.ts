import { formatKyiv } from '../kernel/time.ts';
import { instantOf, type AuctionPeriods, type PeriodName } from './auction.ts';

/** Texts the upstream refusals print, shared by the auction types. */

/** A period as upstream prints it in refusals: `from (<start>) to (<end>)`, Kyiv time (epoch when a bound is missing). */
export const span = (auction: Partial<AuctionPeriods>, period: PeriodName): string =>
  `from (${formatKyiv(instantOf(auction, period, 'startDate') ?? 0)}) to (${formatKyiv(instantOf(auction, period, 'endDate') ?? 0)})`;

/** Python list repr of statuses, as upstream messages print them: `['a', 'b']`. */
export const listed = (statuses: readonly string[]): string => `[${statuses.map((s) => `'${s}'`).join(', ')}]`;
