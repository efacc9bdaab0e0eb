/**
 * Names the code emits and the CDK alarms watch (CloudWatch embedded metric format): every metric is in `namespace`
 * with dimension `service`; a bot run publishes `botRuns` (1 at the end of every completed run: the heartbeat alarms
 * watch its absence) and `botItemFailures` under dimension `bot`. Data only: lib/operations.ts reads it too.
 */
export const TELEMETRY = {
  namespace: 'Agora',
  service: 'agora',
  botRuns: 'BotRuns',
  botItemFailures: 'BotItemFailures',
  authFailures: 'AuthFailures',
  throttled: 'Throttled',
  /**
   * The auction room: an ended room's results posted, a failed post (retried), and how late a stage change was applied.
   */
  roomResultsPosted: 'RoomResultsPosted',
  roomResultsPostFailures: 'RoomResultsPostFailures',
  roomTransitionLateness: 'RoomTransitionLateness',
  /**
   * Whole days from today (Kyiv) to the working-day calendar's `coverage.to`, published by every chronograph run:
   * the coverage alarm fires below CALENDAR_COVERAGE_DAYS, so the calendar is extended before periods reach its end.
   */
  calendarCoverageDays: 'CalendarCoverageDays',
  /**
   * Hours the longest-failing webhook cursor the `webhooks` sweep sent has been failing (its receiver down since),
   * published by every sweep that sent one still failing: the alarm fires past WEBHOOK_FAILING_HOURS.
   */
  webhookFailingHours: 'WebhookFailingHours',
} as const;

/** A webhook receiver failing this long is an alarm (the service disables it after 5 days). */
export const WEBHOOK_FAILING_HOURS = 6;

/** The coverage alarm's threshold: fewer days ahead than this and an auction published today may reach past it. */
export const CALENDAR_COVERAGE_DAYS = 120;
