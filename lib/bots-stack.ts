import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { bots } from '../functions/bots.ts';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AppFunction } from './app-function.ts';
import { grantSecretValue } from './iam.ts';
import { calendarCoverageAlarm, ScheduleDeadLetters, ScheduledBot } from './operations.ts';
import { webhookDeliveries } from './webhooks.ts';

export interface BotsStackProps extends StackProps {
  table: ITableV2;
  participationKey: ISecret;
  /** Schedule expressions replacing bots.ts' (context `botSchedules`). */
  schedules?: Record<string, string>;
  alarmTopic: ITopic;
  /** Reserved concurrency of each bot (context `botConcurrency`): a bot keeps its capacity whatever the API's load. */
  botConcurrency?: number;
}

/**
 * One scheduled Lambda per entry of bots.ts (EventBridge Scheduler, Europe/Kyiv, a dead-letter queue), with its
 * heartbeat and failure alarms (lib/operations.ts ScheduledBot); the webhooks' delivery (lib/webhooks.ts: the table's
 * stream through a pipe and a queue to its Lambda); and the data migrations' Lambda, which nothing schedules: the
 * operator invokes it after a deploy (docs/operations.md).
 */
export class BotsStack extends Stack {
  constructor(scope: Construct, id: string, props: BotsStackProps) {
    super(scope, id, props);
    const deadLetters = new ScheduleDeadLetters(this, 'ScheduleDeadLetters', props.alarmTopic).queue;
    for (const bot of bots) {
      const name = bot.name.charAt(0).toUpperCase() + bot.name.slice(1);
      const participation = bot.secrets?.includes('participation');
      const fn = new AppFunction(this, `${name}Bot`, {
        handler: bot.handler,
        table: props.table,
        access: 'rw',
        timeout: Duration.seconds(60),
        ...(participation && {
          environment: { PARTICIPATION_SECRET_ARN: props.participationKey.secretArn },
          secretsExtension: true,
        }),
      });
      if (participation) grantSecretValue(props.participationKey, fn);
      if (props.botConcurrency)
        (fn.node.defaultChild as CfnFunction).reservedConcurrentExecutions = props.botConcurrency;
      new ScheduledBot(this, `${name}Schedule`, {
        bot: bot.name,
        fn,
        schedule: props.schedules?.[bot.name] ?? bot.schedule,
        description: bot.description,
        alarmTopic: props.alarmTopic,
        deadLetters,
      });
    }
    // The chronograph publishes the calendar's coverage: its alarm sits beside it.
    calendarCoverageAlarm(this, props.alarmTopic);
    webhookDeliveries(this, props.table, props.alarmTopic);
    // A one-off Lambda rather than a custom resource run by every deploy: a migration of a large table may outlast
    // CloudFormation's wait, a failed one would roll the deploy back, and the operator wants its dry run first.
    const migrate = new AppFunction(this, 'Migrate', {
      handler: 'ops/migrate',
      table: props.table,
      access: 'rw',
      timeout: Duration.minutes(15),
    });
    // It reads the whole table in parallel segments (store/migrations.ts): the one function that may Scan.
    migrate.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Scan'], resources: [props.table.tableArn] }));
    new CfnOutput(this, 'MigrateFunctionName', {
      value: migrate.functionName,
      description:
        'The data migrations (npm run migrate in AWS): invoke it with {"dryRun":true} to count, then with {} until it answers "done": true',
    });
  }
}
