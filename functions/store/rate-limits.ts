import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { admitBefore, intervalMs, retryAfterSeconds, type RateLimit } from '#domain/kernel/rate-limit.ts';
import { documentClient, tableName } from './client.ts';
import { isConditionFailure } from './errors.ts';
import { keys } from './table-design.ts';

/**
 * Spends one request of a key's allowance (domain/kernel/rate-limit.ts) with conditional writes on its own item
 * `RATE#<name>`: no read first, no lost update between concurrent Lambdas. Returns undefined when admitted, else the
 * seconds to wait. The item expires (`ttl`) once the bucket would be full again.
 */
export async function spendRequest(name: string, limit: RateLimit, nowMs = Date.now()): Promise<number | undefined> {
  const step = intervalMs(limit);
  const ttl = (tat: number) => Math.ceil((tat + limit.burst * step) / 1000) + 60;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      // The common case: the bucket is partly spent; move its time one interval on while it admits requests.
      await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.rateLimit(name),
          UpdateExpression: 'SET tat = tat + :step, #ttl = :ttl',
          ConditionExpression: 'tat >= :now AND tat <= :last',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':step': step,
            ':now': nowMs,
            ':last': admitBefore(limit, nowMs),
            ':ttl': ttl(admitBefore(limit, nowMs) + step),
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return undefined;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const tat = (error as { Item?: Record<string, unknown> }).Item?.tat;
      const old = typeof tat === 'number' ? tat : typeof tat === 'string' ? Number(tat) : undefined;
      if (old !== undefined && old >= nowMs) return retryAfterSeconds(limit, old, nowMs);
    }
    try {
      // A new or full bucket (its time is past): start it again from now.
      await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.rateLimit(name),
          UpdateExpression: 'SET tat = :next, entity = :entity, #ttl = :ttl',
          ConditionExpression: 'attribute_not_exists(tat) OR tat < :now',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':next': nowMs + step,
            ':now': nowMs,
            ':entity': 'rateLimit',
            ':ttl': ttl(nowMs + step),
          },
        }),
      );
      return undefined;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Another request started the bucket meanwhile: spend from it.
    }
  }
  return 1;
}
