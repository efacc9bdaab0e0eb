// Amounts on the room page (room.js words them): what a bidder types read into cents, by the page's language; an amount
// written as the page writes it; what the room's offer takes; how far above the least acceptable amount a bid is. The
// room's amounts are hryvnias with kopecks; the page counts in cents (kopecks), so no sum is a floating point one.

import { localeOf } from './words.js';

/** An amount of the room (hryvnias, maybe with kopecks) in cents. */
export const toCents = (amount) => Math.round(amount * 100);

/** An amount as money in the page's language: `102 000,00 ₴` (uk), `UAH 102,000.00` (en). */
export const money = (amount, currency, lang) =>
  new Intl.NumberFormat(localeOf(lang), { style: 'currency', currency }).format(amount);

/** An amount in cents as the page writes it in an input: `102 000,00` (uk), `102,000.00` (en). */
export const plain = (cents, lang) =>
  new Intl.NumberFormat(localeOf(lang), {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);

// The mark each language writes between thousands besides a space (Intl: en-GB "101,000.00", uk-UA "101 000,00").
const GROUP_MARK = { en: ',', uk: undefined };

/**
 * A typed amount in cents, or `{ error }` (the words' key: `noAmount`, `badAmount`, `ambiguous`, `decimals`, or
 * `tooLarge`, past what a number holds exactly), read by the page's language, so that every form the page shows is
 * taken: spaces (no-break and narrow no-break too) separate thousands; on an English page a lone "," does too
 * ("102,000", as en-GB writes it); otherwise "," or "." is the decimal mark, and the other mark separates thousands
 * when both are used ("1,234.56", "1.234,56"); at most two decimals. What could be read two ways ("102,000" on a
 * Ukrainian page, where the comma is the decimal mark; "102.000" anywhere) is refused, never guessed: a slip of the
 * mark must never change the amount.
 */
export function parseAmount(typed, lang) {
  const text = typed.trim().replace(/[\s\u00a0\u202f]+/g, ' ');
  if (text === '') return { error: 'noAmount' };
  if (!/^[0-9][0-9 ,.]*$/.test(text)) return { error: 'badAmount' };
  const marks = text.replace(/[0-9 ]/g, '');
  const at = Math.max(text.lastIndexOf(','), text.lastIndexOf('.'));
  let whole = text;
  let fraction = '';
  let group = ' ';
  if (new Set(marks).size === 2) {
    // Both marks: the last one is the decimal mark, the other separates thousands.
    if (marks.indexOf(text[at]) !== marks.length - 1) return { error: 'ambiguous' };
    [whole, fraction, group] = [text.slice(0, at), text.slice(at + 1), text[at] === ',' ? '.' : ','];
  } else if (marks === GROUP_MARK[lang]) {
    group = marks; // "102,000" on an English page: the thousands as the page itself writes them
  } else if (marks.length === 1) {
    fraction = text.slice(at + 1);
    whole = text.slice(0, at);
    // "102,000" is 102 with three decimals or 102 000: refused, whichever was meant.
    if (/^\d{3}$/.test(fraction) && /^\d{1,3}$/.test(whole)) return { error: 'ambiguous' };
  } else if (marks.length > 1) group = marks[0]; // "1.234.567": groups only
  if (!/^\d*$/.test(fraction)) return { error: 'badAmount' };
  if (fraction.length > 2) return { error: 'decimals' };
  const groups = whole.split(group === ' ' ? ' ' : new RegExp(`[ \\${group}]`));
  const grouped =
    groups.length === 1 || (/^\d{1,3}$/.test(groups[0]) && groups.slice(1).every((g) => /^\d{3}$/.test(g)));
  if (!grouped || !/^\d+$/.test(groups.join(''))) return { error: 'ambiguous' };
  const cents = Number(groups.join('')) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? { cents } : { error: 'tooLarge' };
}

/**
 * What a bid may be in `stage` (the one the page's clock is in), as the room's rules give it (the document's `offer`,
 * computed by the same rules that judge the bid: functions/domain/room), in cents. A Dutch step the page reached by
 * the clock asks exactly its amount.
 */
export function offerIn(doc, stage) {
  const offer = doc.offer;
  if (offer && offer.stage === stage?.name)
    return {
      from: toCents(offer.from),
      upTo: toCents(offer.upTo),
      multipleOf: offer.multipleOf && toCents(offer.multipleOf),
    };
  if (stage?.type === 'dutch' && !doc.ended) return { from: toCents(stage.amount), upTo: toCents(stage.amount) };
  return undefined;
}

/**
 * Why `cents` is not a bid the offer takes, or undefined when it is: the words' key and the amounts (in cents) it
 * names: `below` the least, `above` the most, or `notStep` (the step, the multiple below and the one above).
 */
export function outsideOffer(cents, offer) {
  if (!offer) return undefined;
  if (cents < offer.from) return { word: 'below', amounts: [offer.from] };
  if (cents > offer.upTo) return { word: 'above', amounts: [offer.upTo] };
  const m = offer.multipleOf;
  if (m && cents !== offer.from && cents % m !== 0) {
    const lower = Math.max(offer.from, Math.floor(cents / m) * m);
    return { word: 'notStep', amounts: [m, lower, nextAbove(cents, offer)] };
  }
  return undefined;
}

/** The least amount the offer takes above `cents` ("+ step": a whole step up, onto the step's multiples). */
export function nextAbove(cents, offer) {
  if (cents < offer.from) return offer.from;
  const m = offer.multipleOf || 1;
  return (Math.floor(cents / m) + 1) * m;
}

/** An amount far above the least acceptable one asks a second time: more than twice it (a slip of a digit is ×10). */
export const FAR = 2;

/** How many times `from` is in `cents`, to a tenth (rounded down: 2.57 is "2.5"), as the page's language writes it. */
export function timesOf(cents, from, lang) {
  const times = Math.floor((cents * 10) / from) / 10;
  const locale = localeOf(lang);
  return {
    text: new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(times),
    plural: new Intl.PluralRules(locale).select(times),
  };
}
