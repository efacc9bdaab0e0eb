import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { SequenceSource } from '#domain/kernel/aggregate.ts';
import { documentClient, tableName } from './client.ts';
import { keys } from './table-design.ts';

/** The atomic ADD that takes the next number of a per-day counter (the counter starts at 1). */
export const nextSequenceUpdate = (prefix: string, day: string): UpdateCommandInput => ({
  TableName: tableName(),
  Key: keys.sequence(prefix, day),
  UpdateExpression: 'ADD #n :one SET entity = :entity',
  ExpressionAttributeNames: { '#n': 'next' },
  ExpressionAttributeValues: { ':one': 1, ':entity': 'sequence' },
  ReturnValues: 'UPDATED_NEW',
});

/** Per-day counters for lotID / assetID / auctionID: one atomic ADD, no read-modify-write race. */
export const sequences: SequenceSource = {
  async next(prefix, day) {
    const out = await documentClient().send(new UpdateCommand(nextSequenceUpdate(prefix, day)));
    return Number(out.Attributes?.next);
  },
};
