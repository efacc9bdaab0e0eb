import { authorOf } from '#domain/kernel/principal.ts';
import { httpHandler } from '#http-kit/http-handler.ts';
import { changeServiceCalendar } from '#runtime/calendar.ts';

/** PATCH /api/calendar (admin): extend the coverage, add or remove days; checked whole, recorded in the change log. */
export const handler = httpHandler(async (req) => ({
  data: await changeServiceCalendar(authorOf(req.principal), req.now, req.data),
}));
