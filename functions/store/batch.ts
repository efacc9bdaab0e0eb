import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Aggregate } from '#domain/kernel/aggregate.ts';
import type { JsonObject } from '#domain/kernel/objects.ts';
import { fromItems, type AggregateKind } from './aggregates.ts';
import { documentClient, tableName } from './client.ts';
import { keys } from './table-design.ts';

const BATCH_GET_LIMIT = 100;

/**
 * The root items of many aggregates of one kind (without children), consistently read: one BatchGetItem per 100
 * ids. Missing ids map to undefined. Used by bots that decide over a lot and all its assets at once.
 */
export async function loadRoots<T>(
  def: AggregateKind<T>,
  ids: readonly string[],
): Promise<Map<string, Aggregate<T> | undefined>> {
  const out = new Map<string, Aggregate<T> | undefined>(ids.map((id) => [id, undefined]));
  const unique = [...out.keys()];
  for (let i = 0; i < unique.length; i += BATCH_GET_LIMIT) {
    let request: JsonObject | undefined = {
      [tableName()]: {
        Keys: unique.slice(i, i + BATCH_GET_LIMIT).map((id) => keys.root(def.kind, id)),
        ConsistentRead: true,
      },
    };
    while (request && Object.keys(request).length) {
      const page: BatchGetCommandOutput = await documentClient().send(new BatchGetCommand({ RequestItems: request }));
      for (const item of page.Responses?.[tableName()] ?? []) {
        const id = String(item.PK).slice(def.kind.length + 1);
        // As stored: the chain's head and `closed` too, which a write of the root keeps.
        out.set(id, fromItems<T>(id, [item]));
      }
      request = page.UnprocessedKeys;
    }
  }
  return out;
}
