import { httpHandler } from '#http-kit/http-handler.ts';
import { calendarView } from '#runtime/calendar.ts';

/** GET /api/calendar (public): the working-day calendar the periods are counted with; one GetItem. */
export const handler = httpHandler(async () => ({ data: await calendarView() }));
