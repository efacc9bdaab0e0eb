/**
 * Names the code emits and the CDK alarms watch (CloudWatch embedded metric format): every metric is in `namespace`
 * with dimension `service`; a bot run publishes `botItemFailures` under dimension `bot`. Data only: lib/operations.ts
 * reads it too.
 */
export const TELEMETRY = {
  namespace: 'Agora',
  service: 'agora',
  botItemFailures: 'BotItemFailures',
  authFailures: 'AuthFailures',
  throttled: 'Throttled',
} as const;
