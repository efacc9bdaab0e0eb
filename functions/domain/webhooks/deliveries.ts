import type { JsonRecord } from '../kernel/objects.ts';
import { formatKyiv, type Micros } from '../kernel/time.ts';
import { cursorOf } from './events.ts';

/** One attempt to send a delivery. */
export interface Attempt {
  at: string;
  status?: number;
  error?: string;
  /** The first bytes of the answer (at most 1 KB is read). */
  answer?: string;
  ms: number;
  /** This attempt was the one more try at once after an error answered quickly: that error's status or text. */
  quickRetryOf?: number | string;
}

/** One event sent to one subscription: its message as first signed, its attempts, and when the next one is due. */
export interface Delivery {
  subscriptionId: string;
  /** The change's position (events.ts `positionOf`), or `~PING#<time>` for a ping. */
  position: string;
  webhookId: string;
  type: string;
  body: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: Attempt[];
  attemptCount: number;
  /** When the next attempt is due (pending only). */
  due?: Micros;
  /** When it joined its subscription's queue (the sweep sends it once the queue's index surely shows what precedes it). */
  queuedAt?: Micros;
}

/** A delivery as its subscription's owner sees it: the message as sent, where it stands, its attempts. */
export function deliveryView(d: Delivery): JsonRecord {
  return {
    id: d.webhookId,
    type: d.type,
    ...(!d.position.startsWith('~') && { cursor: cursorOf(d.position) }),
    state: d.state,
    // In the zone of every other date the API answers (the attempts' `at` too): Kyiv's offset.
    ...(d.state === 'pending' && d.due !== undefined && { nextAttempt: formatKyiv(d.due) }),
    attemptCount: d.attemptCount,
    attempts: d.attempts,
    body: JSON.parse(d.body),
  };
}
