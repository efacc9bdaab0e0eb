import { TZDate } from '@date-fns/tz';
import { ForbiddenError } from '../kernel/errors.ts';
import { KYIV, kyivDate, type Micros } from '../kernel/time.ts';
import { addCalendarDays, type Calendar, CalendarCoverageError } from './working-days.ts';

/** Auction periods: pure functions of `now`, the auction day and the calendar. */

export interface Period {
  startDate: Micros;
  endDate: Micros;
}

const MINUTE: Micros = 60_000_000;
// A literal, not `24 * 60 * MINUTE`: esbuild keeps a computed top-level constant, and with it this module, in every
// bundle that imports anything from here (the read routes reach it through awarding.ts).
const DAY: Micros = 86_400_000_000;

export const PERIODS_INCORRECT = 'auctionPeriod.startDate is incorrect, it does not allow to create periods correctly';

/**
 * Sandbox speed-up: N from `procurementMethodDetails` such as `"quick, accelerator=1440"`, honoured only for
 * auctions with `mode: 'test'`; 1 (real time) otherwise.
 */
export function accelerator(details?: unknown, mode?: unknown): number {
  if (mode !== 'test' || typeof details !== 'string') return 1;
  const n = Number(/\baccelerator=(\d+)/.exec(details)?.[1] ?? 1);
  return Number.isSafeInteger(n) && n >= 1 ? n : 1;
}

/** `hour:minute` Kyiv wall-clock time on `day`, with the offset in force that day (+02:00 winter, +03:00 summer). */
export function atKyivTime(day: string, hour: number, minute = 0): Micros {
  const [y, m, d] = addCalendarDays(day, 0).split('-').map(Number); // addCalendarDays validates the date
  return new TZDate(y, m - 1, d, hour, minute, 0, 0, KYIV).getTime() * 1000;
}

/** Start of `day` in Kyiv (DST changes happen at 03:00/04:00, so midnight always exists). */
export const kyivMidnight = (day: string): Micros => atKyivTime(day, 0);

/**
 * Sandbox acceleration, as upstream `accelerated_calculate_business_date` (start + delta / N), but always measured
 * from `now`: every boundary moves to now + (boundary − now) / N, so specific hours are lost and a walk through
 * all periods takes minutes (N = 1440: a day becomes a minute). Order between boundaries is kept.
 */
const accelerate =
  (now: Micros, n: number) =>
  (at: Micros): Micros =>
    n > 1 ? now + Math.round((at - now) / n) : at;

/**
 * What counting periods needs besides the auction: the instant counted from and the working-day calendar. The
 * calendar is always an argument (the runtime builds it from its configuration), never a module default.
 */
export interface Timing {
  now: Micros;
  calendar: Calendar;
}

export interface PeriodsInput extends Timing {
  /** Kyiv date of `auctionPeriod.startDate`. */
  auctionStartDay: string;
  accelerator?: number;
}

export interface LandleasePeriods {
  rectificationPeriod: Period;
  tenderPeriod: Period;
  enquiryPeriod: Period;
  auctionShouldStartAfter: Micros;
}

/**
 * Periods set by the landlease phase commit (draft → active.rectification), per interface.md §2.5/§8:
 * - rectification: [now, now + 2 days] — 48 hours, as upstream (timedelta computed in UTC), not wall-clock days;
 * - tender: [rectification end, 20:00 Kyiv on the day 3 business days before the auction day];
 * - enquiry: [now, 20:00 Kyiv on the calendar day before the auction day];
 * - auction: should start after Kyiv midnight of the auction day.
 *
 * "3 business days before" is read as `addWorkingDays(auctionDay, -3)`: for a Monday auction, the Wednesday before,
 * leaving Thursday and Friday in between. Upstream GEB code used the 4th working day back (three whole working days
 * in between, reference §11 item 6); the contract (interface.md) wins here.
 *
 * Throws ForbiddenError (403) when the auction day is too close for the periods to be in order.
 * In the sandbox the auction day must still be far enough ahead; only the waits shrink.
 */
export function landleasePeriods({
  now,
  auctionStartDay,
  accelerator: n = 1,
  calendar,
}: PeriodsInput): LandleasePeriods {
  const rectificationEnd = now + 2 * DAY;
  const tenderEnd = atKyivTime(calendar.addWorkingDays(auctionStartDay, -3), 20);
  const enquiryEnd = atKyivTime(addCalendarDays(auctionStartDay, -1), 20);
  if (tenderEnd < rectificationEnd || enquiryEnd < now) throw new ForbiddenError(PERIODS_INCORRECT);
  const at = accelerate(now, n);
  return {
    rectificationPeriod: { startDate: now, endDate: at(rectificationEnd) },
    tenderPeriod: { startDate: at(rectificationEnd), endDate: at(tenderEnd) },
    enquiryPeriod: { startDate: now, endDate: at(enquiryEnd) },
    auctionShouldStartAfter: at(kyivMidnight(auctionStartDay)),
  };
}

export interface InsiderPeriods {
  enquiryPeriod: Period;
  tenderPeriod: Period;
  rectificationPeriod: Period;
  auctionShouldStartAfter: Micros;
}

/**
 * Periods of a dgfInsider auction at creation (reference §7.2):
 * - enquiry: [now, 20:00 Kyiv the day before the auction day];
 * - tender: [now, 16:15 Kyiv on the auction day] (09:30 + the 405-minute Dutch auction);
 *   sandbox `quick`: enquiry end + 10 minutes (not accelerated, as upstream);
 * - rectification: [now, 2 working days later, same Kyiv wall-clock time];
 * - auction: should start after Kyiv midnight of the auction day.
 * Accelerated, the day's boundaries shrink towards `now`; but once 20:00 of the day before has passed (a sandbox
 * auction today, minutes ahead), they shrink towards the auction's start instant instead, as upstream counted the
 * enquiry end back from it (`startDate − pause / N`): the original recording started an auction 5 minutes ahead.
 * No too-close check here: upstream insider had none at this point; the caller validates the start date.
 */
export function insiderPeriods({
  now,
  auctionStartDay,
  auctionStart = kyivMidnight(auctionStartDay),
  accelerator: n = 1,
  calendar,
  quick = false,
}: PeriodsInput & { auctionStart?: Micros; quick?: boolean }): InsiderPeriods {
  const dayBefore = atKyivTime(addCalendarDays(auctionStartDay, -1), 20);
  const at = accelerate(dayBefore > now ? now : auctionStart, n);
  const enquiryEnd = at(dayBefore);
  return {
    enquiryPeriod: { startDate: now, endDate: enquiryEnd },
    tenderPeriod: {
      startDate: now,
      endDate: quick ? enquiryEnd + 10 * MINUTE : at(atKyivTime(auctionStartDay, 16, 15)),
    },
    rectificationPeriod: { startDate: now, endDate: accelerate(now, n)(workingDaysLater(now, 2, calendar)) },
    auctionShouldStartAfter: at(kyivMidnight(auctionStartDay)),
  };
}

/**
 * `now` moved n working days forward at the same Kyiv wall-clock time (so 24 or 25 hours a day across DST).
 * Started on a non-working day, it counts from 00:00 of the next working day, as upstream
 * `calculate_business_date` did, so the result is midnight after n whole working days.
 */
export function workingDaysLater(now: Micros, n: number, calendar: Calendar): Micros {
  const today = kyivDate(now);
  if (!calendar.isWorkingDay(today)) return kyivMidnight(calendar.addWorkingDays(today, n + 1));
  const [y, m, d] = calendar.addWorkingDays(today, n).split('-').map(Number);
  const local = new TZDate(Math.floor(now / 1000), KYIV);
  const ms = new TZDate(
    y,
    m - 1,
    d,
    local.getHours(),
    local.getMinutes(),
    local.getSeconds(),
    local.getMilliseconds(),
    KYIV,
  ).getTime();
  return ms * 1000 + (now % 1000); // keep the microseconds
}

export interface AwardPeriods {
  verificationEnd: Micros;
  signingEnd: Micros;
}

/** Upstream awarding v3: 4 working days to load the protocol (VERIFY_AUCTION_PROTOCOL_TIME), 20 to sign (CONTRACT_SIGNING_TIME). */
export const AWARD_VERIFICATION_DAYS = 4;
export const AWARD_SIGNING_DAYS = 20;
/** Upstream rounds both award deadlines to 18:00 Kyiv of the day reached (`round_to_18_hour_delta`, CONTRACT_SIGNING_PERIOD_END_DATE_HOUR). */
const AWARD_END_HOUR = 18;

/**
 * The deadlines of an award that becomes `pending` at `now` (upstream awarding v3 `award_verificationPeriod` /
 * `award_signingPeriod`, both counted from the moment the award becomes pending):
 * - verification: 18:00 Kyiv on the day 4 working days later;
 * - signing: 18:00 Kyiv on the day 20 working days later.
 * Past the working-day calendar's coverage, calendar days are counted instead (never a refusal: awarding is
 * started by the auction system or the chronograph, not by a client). Accelerated in the sandbox like every period.
 */
/**
 * The end of a contract's signing period once prolonged (upstream contracting v3 `ProlongationManager.apply`): 18:00
 * Kyiv on the day `days` working days after the period's start (calendar days past the calendar's coverage);
 * accelerated in the sandbox from that start, as upstream `accelerated_calculate_business_date`.
 */
export function prolongedSigningEnd({
  start,
  days,
  accelerator: n = 1,
  calendar,
}: {
  start: Micros;
  days: number;
  accelerator?: number;
  calendar: Calendar;
}): Micros {
  let day: string;
  try {
    day = kyivDate(workingDaysLater(start, days, calendar));
  } catch (error) {
    if (!(error instanceof CalendarCoverageError)) throw error;
    day = addCalendarDays(kyivDate(start), days);
  }
  return accelerate(start, n)(atKyivTime(day, AWARD_END_HOUR));
}

export function awardPeriods({
  now,
  accelerator: n = 1,
  calendar,
}: Omit<PeriodsInput, 'auctionStartDay'>): AwardPeriods {
  const dayAfter = (days: number): string => {
    try {
      return kyivDate(workingDaysLater(now, days, calendar));
    } catch (error) {
      if (error instanceof CalendarCoverageError) return addCalendarDays(kyivDate(now), days);
      throw error;
    }
  };
  const at = accelerate(now, n);
  return {
    verificationEnd: at(atKyivTime(dayAfter(AWARD_VERIFICATION_DAYS), AWARD_END_HOUR)),
    signingEnd: at(atKyivTime(dayAfter(AWARD_SIGNING_DAYS), AWARD_END_HOUR)),
  };
}
