import { TZDateMini } from '@date-fns/tz';
import { lightFormat } from 'date-fns';

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
  const local = new TZDateMini(Math.floor(micros / 1000), KYIV);
  const fraction = ((micros % 1_000_000) + 1_000_000) % 1_000_000;
  const decimals = fraction === 0 ? '' : `.${String(fraction).padStart(6, '0')}`;
  return `${lightFormat(local, "yyyy-MM-dd'T'HH:mm:ss")}${decimals}${offsetText(local)}`;
}

/**
 * `+02:00`: the zone offset of that instant. (date-fns `format` would write it with `xxx`, but it brings every locale
 * formatter into each Lambda: lightFormat and this are a twentieth of its size.)
 */
function offsetText(local: Date): string {
  const minutes = -local.getTimezoneOffset();
  const abs = Math.abs(minutes);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${minutes < 0 ? '-' : '+'}${hhmm}`;
}

/** The Kyiv calendar date (`YYYY-MM-DD`) of an instant: used in lotID / assetID / auctionID. */
export function kyivDate(at: Micros | Date): string {
  const ms = typeof at === 'number' ? Math.floor(at / 1000) : at.getTime();
  return lightFormat(new TZDateMini(ms, KYIV), 'yyyy-MM-dd');
}

const ISO = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d{1,6})\d*)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Parses an ISO 8601 date or date-time into microseconds; a value without an offset is read as Kyiv local time.
 * Returns undefined when the text is not such a value.
 */
export function parseInstant(text: string): Micros | undefined {
  const m = ISO.exec(text);
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
    ms = new TZDateMini(y, mo - 1, d, h, mi, s, KYIV).getTime();
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
