import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { changeOfItem, type ObjectChange } from '#domain/webhooks/events.ts';
import { log } from '#runtime/observability.ts';
import { acceptChanges } from '#runtime/webhooks.ts';
import { countRequests } from '#store/client.ts';
import { REVISION_ENTITY } from '#store/table-design.ts';

/**
 * The delivery Lambda: the changes of the table's stream, as the pipe (DynamoDB Streams -> filter -> FIFO SQS, one
 * message group per object) hands them in SQS messages (each body one stream record), fanned out to the subscriptions
 * and sent at once. A batch succeeds or fails whole (its deliveries are written together, so no partial batch
 * response): one that throws comes back from the queue, its objects' later changes behind it, and after 5 receives
 * goes to the dead-letter queue; a change handed again makes no second delivery of what its first handling wrote
 * (the delivery items are put once, after their first attempt). Locally, lib/local/change-stream.ts reads DynamoDB Local's
 * stream and calls this same handler.
 */
export interface StreamMessages {
  Records: { body: string; attributes?: { ApproximateReceiveCount?: string } }[];
}

/**
 * The change a stream record carries (its new image), or undefined for anything else: another item, a removal, a
 * body that is no stream record. Only revisions are read (the pipe's filter, lib/webhooks.ts, is the same test), so
 * an item no client wrote, such as a migration's state whose empty map DynamoDB Local's stream writes untyped as `{}`,
 * is skipped before it is unmarshalled, and no one record can stop the records after it.
 */
export function changeOfRecord(body: string): ObjectChange | undefined {
  try {
    // A stream record as the pipe puts it in the queue (the stream's own shape, not a client's data).
    const record: { dynamodb?: { NewImage?: Record<string, AttributeValue> } } | null = JSON.parse(body);
    const image = record?.dynamodb?.NewImage;
    if (image?.entity?.S !== REVISION_ENTITY) return undefined;
    return changeOfItem(unmarshall(image));
  } catch (error) {
    log().warn('webhooks: a stream record that is no change, skipped', { error: (error as Error).message });
    return undefined;
  }
}

/** What one batch did: its changes, the deliveries they made, the DynamoDB requests that took (the bench's cost). */
export async function handler(
  event: StreamMessages,
): Promise<{ changes: number; deliveries: number; requests: number }> {
  const changes = event.Records.map((r) => changeOfRecord(r.body)).filter((c) => c !== undefined);
  // Received before (a handling failed): what that handling wrote is looked up, not sent a second time.
  const handedBefore = event.Records.some((r) => Number(r.attributes?.ApproximateReceiveCount ?? 1) > 1);
  const { result, requests } = await countRequests(() => acceptChanges(changes, handedBefore));
  return { changes: changes.length, deliveries: result, requests };
}
