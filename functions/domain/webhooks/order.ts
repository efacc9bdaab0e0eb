import type { ObjectChange } from './events.ts';

/**
 * One object's changes in a batch, in `seq` order whatever order the stream handed them in. The fan-out keeps per
 * object the last `seq` whose deliveries are all written (`handled`): a change at or below it was sent already (a
 * later change's handling read it from the change log), and changes missing between it and the newest one handed
 * (the stream handed a later change first) are read from the log, so no change waits on its own record's arrival.
 */
export interface ObjectPlan {
  /** The handed changes still to send, oldest first. */
  take: ObjectChange[];
  /** The seqs to read from the change log, strictly between these two (undefined: none missing). */
  missing?: { after: number; before: number };
}

/** The key of a change's object in a batch. */
export const objectOf = (c: Pick<ObjectChange, 'kind' | 'id'>): string => `${c.kind}#${c.id}`;

/**
 * What to do with an object's handed changes, `handled` being its last seq whose deliveries are written (undefined:
 * none recorded: an object older than the record, or one whose first changes are still on their way).
 */
export function planObject(handed: readonly ObjectChange[], handled: number | undefined): ObjectPlan {
  const bySeq = new Map(handed.map((c) => [c.seq, c]));
  const seqs = [...bySeq.keys()].filter((s) => handled === undefined || s > handled).sort((a, b) => a - b);
  const take = seqs.map((s) => bySeq.get(s)!);
  if (!take.length) return { take };
  const oldest = seqs[0]!;
  const newest = seqs.at(-1)!;
  const after = handled ?? 0;
  const whole = oldest === after + 1 && newest - oldest + 1 === seqs.length;
  return whole ? { take } : { take, missing: { after, before: newest } };
}
