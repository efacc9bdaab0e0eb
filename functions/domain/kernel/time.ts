import { tzOffset } from '@date-fns/tz';

/** The service's time zone: every timestamp is written with its Kyiv offset (upstream TZ = Europe/Kiev). */
export const KYIV = 'Europe/Kyiv';

/**
 * An instant with microsecond precision, as microseconds since the epoch.
 * (2^53 µs is year 2255: a plain number is exact.)
 */
export type Micros = number;

/** The clock commands receive; tests inject a fixed or moving one. */
export type Clock = () => Micros;

export const systemClock: Clock = () => Math.floor((performance.timeOrigin + performance.now()) * 1000);

export const microsOf = (date: Date): Micros => date.getTime() * 1000;
export const dateOf = (micros: Micros): Date => new Date(Math.floor(micros / 1000));

/**
 * `2026-11-22T06:15:34.123456+02:00`: ISO 8601 with microseconds and the Kyiv offset of that instant. A whole second
 * has no fraction (`2026-11-20T00:00:00+02:00`), as Python's `isoformat()` wrote it in the original services: period
 * ends and midnights read exactly as clients of those services expect.
 */
export function formatKyiv(at: Micros | Date): string {
  const micros = typeof at === 'number' ? at : microsOf(at);
  const ms = Math.floor(micros / 1000);
  const offset = tzOffset(KYIV, new Date(ms));
  const fraction = ((micros % 1_000_000) + 1_000_000) % 1_000_000;
  const decimals = fraction === 0 ? '' : `.${String(fraction).padStart(6, '0')}`;
  return `${kyivWallClock(ms, offset).slice(0, 19)}${decimals}${offsetText(offset)}`;
}

/**
 * The Kyiv wall clock of an instant as ISO text (`2026-11-22T06:15:34.123Z`, the `Z` meaningless): the instant
 * shifted by its zone offset. Only the offset comes from the time zone data (@date-fns/tz `tzOffset`, over Intl),
 * so no date object with zone-aware getters (TZDate, 4 KB) is needed in every Lambda.
 */
const kyivWallClock = (ms: number, offset = tzOffset(KYIV, new Date(ms))): string =>
  new Date(ms + offset * 60_000).toISOString();

/** `+02:00`: a zone offset in minutes as ISO 8601 writes it. */
function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${minutes < 0 ? '-' : '+'}${hhmm}`;
}

/** The Kyiv calendar date (`YYYY-MM-DD`) of an instant: used in lotID / assetID / auctionID. */
export function kyivDate(at: Micros | Date): string {
  const ms = typeof at === 'number' ? Math.floor(at / 1000) : at.getTime();
  return kyivWallClock(ms).slice(0, 10);
}

/**
 * The instant a Kyiv wall-clock time names (fields as Date.UTC takes them). The offset is looked up at the instant
 * the first guess gives and once more at the corrected one, which settles it on both sides of a DST change; a wall
 * time skipped by the spring change reads as the same time in the earlier offset (one hour later), as Date does.
 */
function kyivInstant(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const wall = Date.UTC(y, mo, d, h, mi, s);
  const first = wall - tzOffset(KYIV, new Date(wall)) * 60_000;
  const second = wall - tzOffset(KYIV, new Date(first)) * 60_000;
  return tzOffset(KYIV, new Date(second)) === tzOffset(KYIV, new Date(first)) ? second : Math.max(first, second);
}

/** An ISO 8601 date or date-time (exported for the test that lints every pattern for backtracking). */
export const ISO_PATTERN =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d{1,6})\d*)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Parses an ISO 8601 date or date-time into microseconds; a value without an offset is read as Kyiv local time.
 * Returns undefined when the text is not such a value.
 */
export function parseInstant(text: string): Micros | undefined {
  const m = ISO_PATTERN.exec(text);
  if (!m) return undefined;
  const [, day, time = '00:00:00', fraction = '', zone] = m;
  const hms = time.length === 5 ? `${time}:00` : time;
  if (!realDay(day) || !realTime(hms)) return undefined;
  let ms: number;
  if (zone) {
    ms = Date.parse(
      `${day}T${hms}${zone === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone}`,
    );
  } else {
    const [y, mo, d] = day.split('-').map(Number);
    const [h, mi, s] = hms.split(':').map(Number);
    ms = kyivInstant(y, mo - 1, d, h, mi, s);
  }
  if (Number.isNaN(ms)) return undefined;
  return ms * 1000 + Number(fraction.padEnd(6, '0'));
}

/** `2026-02-30` is not a day (Date would roll it over to March). */
function realDay(day: string): boolean {
  const [y, m, d] = day.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const realTime = (hms: string): boolean => {
  const [h, m, s] = hms.split(':').map(Number);
  return h < 24 && m < 60 && s < 60;
};

/** Fixed-width UTC text that sorts as time does (Kyiv-offset strings do not, across a DST change). */
export function sortableUtc(micros: Micros): string {
  const iso = new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19);
  return `${iso}.${String(micros % 1_000_000).padStart(6, '0')}Z`;
}

/**
 * `now`, or 1 µs after `stored` (an object's `dateModified`) when the clock is not ahead of it: the instant of a
 * change that must date the object later than every change before it (clocks of two Lambdas may disagree).
 */
export function laterThan(now: Micros, stored: string | undefined): Micros {
  const was = stored === undefined ? undefined : parseInstant(stored);
  return was !== undefined && was >= now ? was + 1 : now;
}
