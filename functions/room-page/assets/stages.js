// The room document's time and stages as the page reads them (room.js): the current stage by the server's clock, the
// stages around it, whether a bidder may bid in one, the countdown's text and the times shown. Pure: the clock comes in
// as `now`.

import { localeOf } from './words.js';

/** The stages a bidder bids in; the others (pauses, waits, the announcement) take no bid. */
export const BIDDING = ['dutch', 'sealedbid', 'bestbid', 'english'];

/** An instant of the room (ISO with an offset, maybe microseconds) as epoch milliseconds. */
export const instant = (text) => Date.parse(String(text).replace(/(\.\d{3})\d+/, '$1'));

/**
 * The current stage at `now` (the server's clock, epoch milliseconds): the one the document names, or a later one whose
 * start has passed (stages follow the clock; the room sends a new document when something changes, not at every
 * boundary). Never past the end, and none moves on once the room has ended or is `closed`.
 */
export function stageAt(doc, now, closed) {
  let at = doc.currentStage - doc.stagesFrom;
  if (!doc.ended && !closed) while (at + 1 < doc.stages.length && instant(doc.stages[at + 1].start) <= now) at += 1;
  return doc.stages[at];
}

/** The stage after `stage` in the document, if it has one. */
export const nextStage = (doc, stage) => doc.stages.find((s) => s.index === stage.index + 1);

/** The first stage of `type` in the document. */
export const stageOfType = (doc, type) => doc.stages.find((s) => s.type === type);

/** The Dutch winner's amount, as the results show it (the best bid's, once shown, is the Dutch winner's line too). */
export const dutchAmount = (doc) => doc.history?.find((b) => b.stage.startsWith('dutch_'))?.amount;

/**
 * Whether the bidder `me` (the document's own part; none for an observer) may bid in `stage`: the document says so for
 * the stage it was made in and the next one, as the page's clock may pass into that before the next document arrives
 * (the Dutch winner would read "only the Dutch winner bids now" at the start of the best bid).
 */
export function mayBidIn(doc, stage, me) {
  if (!me || !stage) return false;
  if (stage.index === doc.currentStage) return me.mayBid;
  return stage.index === doc.currentStage + 1 && me.mayBidNext === true;
}

/** `seconds` left as the countdown shows them (`mm:ss`, `h:mm:ss` from an hour) and as a `<time>`'s duration. */
export function countdown(seconds) {
  const left = Math.max(0, seconds);
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const sec = left % 60;
  const two = (n) => String(n).padStart(2, '0');
  return { text: h ? `${h}:${two(m)}:${two(sec)}` : `${two(m)}:${two(sec)}`, dateTime: `PT${left}S` };
}

/** An instant of the room as Kyiv time, in the page's language (`lang`). */
export const clockOf = (text, lang) =>
  new Date(instant(text)).toLocaleTimeString(localeOf(lang), { timeZone: 'Europe/Kyiv' });

/** An instant as Kyiv time, with the date when it is not the day of `now` (a room opened the day before its auction). */
export function whenOf(text, now, lang) {
  const day = (at) => new Date(at).toLocaleDateString('uk-UA', { timeZone: 'Europe/Kyiv' });
  const at = instant(text);
  const date =
    day(at) === day(now) ? '' : `${new Date(at).toLocaleDateString(localeOf(lang), { timeZone: 'Europe/Kyiv' })} `;
  return `${date}${clockOf(text, lang)}`;
}
