import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { changeOfRoot, type JournalChange } from '#domain/journal/journal.ts';
import { log } from '#runtime/observability.ts';
import { acceptChanges } from '#runtime/webhooks.ts';
import { countRequests } from '#store/client.ts';
import { appendTogether } from '#store/journal.ts';

/**
 * The journal's writer and the webhooks' first attempts: the changes of the table's stream, as the pipe (DynamoDB
 * Streams -> filter -> FIFO SQS, one message group per object) hands them in SQS messages (each body one stream
 * record of an object's root), appended to the journal in each object's `seq` order (domain/journal: the records of one
 * item come in order, and the writer checks it against the object's mark), then fanned out to the subscriptions and
 * sent at once. A batch succeeds or fails whole (no partial batch response): one that throws comes back from the queue,
 * its objects' later changes behind it, and after 5 receives goes to the dead-letter queue; a change handed again is
 * not journaled twice, and the subscriptions' cursors never send one twice. Locally, lib/local/change-stream.ts reads
 * DynamoDB Local's stream and calls this same handler.
 */
export interface StreamMessages {
  Records: { body: string; attributes?: { ApproximateReceiveCount?: string } }[];
}

/**
 * The change a stream record carries (its root's new image), or undefined for anything else: another item, a removal,
 * a body that is no stream record. Only roots of lots, assets and auctions are read (the pipe's filter, lib/webhooks.ts,
 * is the same test), so an item no client wrote, such as a migration's state whose empty map DynamoDB Local's stream
 * writes untyped as `{}`, is skipped before it is unmarshalled, and no one record can stop the records after it.
 */
export function changeOfRecord(body: string): JournalChange | undefined {
  try {
    // A stream record as the pipe puts it in the queue (the stream's own shape, not a client's data).
    const record: { dynamodb?: { NewImage?: Record<string, AttributeValue> } } | null = JSON.parse(body);
    const image = record?.dynamodb?.NewImage;
    if (image?.SK?.S !== '#ROOT' || !image.history?.M) return undefined;
    return changeOfRoot(unmarshall(image));
  } catch (error) {
    log().warn('journal: a stream record that is no change, skipped', { error: (error as Error).message });
    return undefined;
  }
}

/** What one batch did: its changes journaled, the deliveries they made, the DynamoDB requests that took. */
export async function handler(
  event: StreamMessages,
): Promise<{ changes: number; deliveries: number; requests: number }> {
  const handed = event.Records.map((r) => changeOfRecord(r.body)).filter((c) => c !== undefined);
  const { result, requests } = await countRequests(async () => {
    const appended = await appendTogether(handed);
    // Every change handed is journaled now (this time, or before): the cursors of the subscriptions that hear of them
    // read on (a batch handed again wakes them again: a cursor knows what it has sent, so nothing goes twice).
    const deliveries = await acceptChanges(handed);
    return { journaled: appended.fresh.length, deliveries };
  });
  return { changes: result.journaled, deliveries: result.deliveries, requests };
}
