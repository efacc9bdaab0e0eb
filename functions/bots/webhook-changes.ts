import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { changeOfRoot, type JournalChange, newsAfterMarks, objectKey } from '#domain/journal/journal.ts';
import { log } from '#runtime/observability.ts';
import { acceptChanges } from '#runtime/webhooks.ts';
import { countRequests } from '#store/client.ts';
import { appendTogether, journalPort } from '#store/journal.ts';

/**
 * The journal's writer and the webhooks' first attempts: the changes of the table's stream, as the pipe (DynamoDB
 * Streams -> filter -> FIFO SQS, one message group per object) hands them in SQS messages (each body one stream
 * record of an object's root), appended to the journal in each object's `seq` order (domain/journal: the records of one
 * item come in order, and the writer checks it against the object's mark), then fanned out to the subscriptions and
 * sent at once. A batch succeeds or fails whole (no partial batch response): one that throws comes back from the queue,
 * its objects' later changes behind it, and after 5 receives goes to the dead-letter queue; a change handed again is
 * not journaled twice, and its deliveries are looked up, not made twice. Locally, lib/local/change-stream.ts reads
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
  // Received before (a handling failed): its journaled changes may not all have been fanned out; what that handling
  // wrote of their deliveries is looked up, not sent a second time.
  const handedBefore = event.Records.some((r) => Number(r.attributes?.ApproximateReceiveCount ?? 1) > 1);
  const { result, requests } = await countRequests(async () => {
    // The changes that are surely news (each object's, from right after its mark) go out at once, beside the append:
    // webhooks never wait for the journal's commit (its appends are serialized per lane). An object with a gap (a
    // change read from its log first), or the journal had never seen, waits for the append, to keep its order.
    const objects = [...new Map(handed.map((c) => [objectKey(c), { kind: c.kind, id: c.id }])).values()];
    const early = handedBefore ? [] : newsAfterMarks(handed, (await journalPort.read(objects, [])).marks);
    const [appended, sentEarly] = await Promise.all([appendTogether(handed), acceptChanges(early)]);
    const sentNow = new Set(early.map(objectKey));
    // The history of an object the journal had never seen was sent when it happened (before the journal): not news.
    const late = appended.fresh.filter((c) => !sentNow.has(objectKey(c)) && !appended.takenOver.includes(c));
    const changes = handedBefore ? [...appended.seen, ...late] : late;
    // A change read from the log may have been sent by a batch that failed after its send: looked up, not sent twice.
    const fromLog = late.some((c) => !handed.includes(c));
    const sentLate = await acceptChanges(changes, handedBefore || fromLog);
    return { journaled: appended.fresh.length, deliveries: sentEarly + sentLate };
  });
  return { changes: result.journaled, deliveries: result.deliveries, requests };
}
