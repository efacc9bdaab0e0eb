import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Aggregate, Change } from '#domain/kernel/aggregate.ts';
import type { RevisionAuthor } from '#domain/kernel/history.ts';
import { changeWrites, type AggregateKind } from './aggregates.ts';
import { documentClient, tableName } from './client.ts';
import { assertWithinTransactionLimits } from './errors.ts';
import { keys } from './table-design.ts';

export { MAX_TRANSACTION_ITEMS } from './errors.ts';

export interface AggregateWrite {
  def: AggregateKind<any>;
  current: Aggregate<any>;
  change: Change<any>;
  /** Who makes the change, as its revision names them. */
  author: RevisionAuthor;
}

/** An aggregate the transaction must find unchanged (same `rev`) without writing it. */
export interface AggregateCheck {
  def: AggregateKind<any>;
  current: Aggregate<any>;
}

/**
 * Changes of several aggregates as one all-or-nothing transaction, each conditioned on the revision read:
 * a concurrent writer or a second bot run makes the whole transaction fail and nothing is written.
 */
export function transactionItems(
  writes: AggregateWrite[],
  checks: AggregateCheck[] = [],
): NonNullable<TransactWriteCommandInput['TransactItems']> {
  const TableName = tableName();
  return [
    ...writes.flatMap((w) => changeWrites(w.def, w.current, w.change, w.author)),
    ...checks.map((c) => ({
      ConditionCheck: {
        TableName,
        Key: keys.root(c.def.kind, c.current.id),
        ConditionExpression: 'rev = :rev',
        ExpressionAttributeValues: { ':rev': c.current.rev },
      },
    })),
  ];
}

export async function transact(writes: AggregateWrite[], checks: AggregateCheck[] = []): Promise<void> {
  const items = transactionItems(writes, checks);
  if (items.length === 0) return;
  assertWithinTransactionLimits(items);
  await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
}
