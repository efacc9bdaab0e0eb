import type { Context } from 'aws-lambda';
import { type MigrationReport, migrate } from '../store/migrations.ts';

/**
 * The data migrations in AWS: a one-off Lambda the operator invokes after a deploy (docs/operations.md "Upgrades and
 * migrations"), `{"dryRun": true}` to count first. It stops starting pages a minute before its 15-minute limit and
 * answers `done: false`; invoked again, it resumes where each segment stopped.
 */
export const handler = async (
  event: { dryRun?: boolean; again?: boolean; segments?: number } | undefined,
  context: Pick<Context, 'getRemainingTimeInMillis'>,
): Promise<MigrationReport> =>
  migrate({
    dryRun: event?.dryRun === true,
    again: event?.again === true,
    segments: event?.segments,
    deadline: Date.now() + context.getRemainingTimeInMillis() - 60_000,
  });
