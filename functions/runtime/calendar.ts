import { type Calendar, type CalendarMode, ukraineCalendar } from '#domain/calendar/working-days.ts';
import { config } from './config.ts';

const built = new Map<CalendarMode, Calendar>();

/**
 * The working-day calendar of this deployment (AGORA_CALENDAR), built on first use and passed to the commands and
 * bots that count periods; the domain never holds a current calendar. Keyed by mode so that a test which changes the
 * environment and calls `resetConfig` gets the calendar it asked for.
 */
export function serviceCalendar(): Calendar {
  const mode = config().calendar;
  let calendar = built.get(mode);
  if (!calendar) {
    calendar = ukraineCalendar(mode);
    built.set(mode, calendar);
  }
  return calendar;
}
