// The room in words (room.js shows them): a stage's name, a bidder's label, the stage's rule, why a bidder waits, the
// end, and a refusal explained, each from the room document in the page's language. `texts` is handed the words of
// the current language (`words()`, words.js), how an amount (`money`, hryvnias) and an instant (`when`) are written,
// and the server's clock (`now`, epoch milliseconds).

import { nextAbove, outsideOffer as outside, toCents } from './amounts.js';
import { BIDDING, instant, nextStage, stageOfType } from './stages.js';

export function texts({ words, money, when, now }) {
  const t = (key) => words()[key];

  function stageName(stage) {
    const number = /_(\d+)$/.exec(stage.name)?.[1];
    const word = t('stage')[stage.type] ?? stage.name;
    if (typeof word !== 'function') return word;
    // The stage's own number, as the protocol, the CLI and docs/api.md name it: dutch_40 is "Dutch step 40".
    return word(Number(number ?? 1));
  }

  /** A bidder's label: the name once revealed, "Bidder #N" in the page's language before. */
  const labelOf = (doc, number) =>
    (doc.namesRevealed && doc.bidders.find((b) => b.bidderNumber === number)?.label) || t('bidderN')(number);

  /** Why `cents` is not a bid the offer (in cents) takes, in words, or undefined when it is. */
  function outsideOffer(cents, offer) {
    const why = outside(cents, offer);
    return why && t(why.word)(...why.amounts.map((c) => money(c / 100)));
  }

  /** The stage's rule in words, from the room's offer now (in cents): what this bidder may bid now and how. */
  function ruleOf(doc, stage, offer) {
    const rule = t('rule')[stage.type];
    if (!offer || !rule) return '';
    const dutch = doc.results.find((r) => r.dutchWinner);
    return rule({
      from: money(offer.from / 100),
      step: doc.step ? money(doc.step) : '—',
      next: money(nextAbove(offer.from, offer) / 100),
      dutch: dutch ? money(dutch.amount) : '—',
    });
  }

  /** Why the bidder `me` may not bid now, and what comes next, when. */
  function waitOf(doc, stage, me) {
    const w = t('wait');
    const dutch = doc.results.find((r) => r.dutchWinner);
    const best = stageOfType(doc, 'bestbid');
    const results = stageOfType(doc, 'announcement') ?? stageOfType(doc, 'pre-announcement');
    if (
      dutch &&
      me &&
      dutch.bidderNumber === me.bidderNumber &&
      ['pre-sealedbid', 'sealedbid', 'pre-bestbid'].includes(stage.type) &&
      best
    )
      return w.dutchWinner(money(dutch.amount), when(best.start));
    if (['bestbid', 'pre-bestbid'].includes(stage.type) && results) return w.notDutchWinner(when(results.start));
    const next = nextStage(doc, stage);
    if (next && BIDDING.includes(next.type)) return w.pause(stageName(next), when(next.start));
    if (results && !doc.ended) return w.over(when(results.start));
    return '';
  }

  /** The end of the room in lines: cancelled; or ended, why, the winner (the second line) and the results' post. */
  function endLines(room) {
    const doc = room.document;
    if (room.closed) return [t('cancelled')];
    if (!doc.ended) return [];
    const winner = doc.results[0];
    return [
      `${t('ended')}: ${t('reason')[doc.ended.reason] ?? doc.ended.reason}.`,
      winner ? `${t('winner')}: ${labelOf(doc, winner.bidderNumber)} — ${money(winner.amount)}` : t('noWinner'),
      ...(room.results ? [t(room.results)] : []),
    ];
  }

  /**
   * A refusal (`message`) of `bid` in words of what happened and what now, from the document as it is when shown (a
   * refusal can come before the document that explains it: the bid that won the round): who came first, the price
   * now (`offer`, in cents), the amount the stage takes; else the room's own words.
   */
  function explain(message, bid, doc, me, offer) {
    if (message.code === 'stage' && bid.type === 'english') {
      const first = doc.history?.findLast((b) => b.stage === bid.stage);
      const next = doc.stages.find((s) => s.type === 'english' && instant(s.start) > now());
      const then = next ? t('nextRound')(when(next.start), money(next.amount)) : '';
      if (first && first.bidderNumber !== me?.bidderNumber)
        return t('beaten')(labelOf(doc, first.bidderNumber), money(first.amount), then);
    }
    if (message.code === 'stage' && bid.type === 'dutch' && offer) return t('stepGone')(money(offer.from / 100));
    const wrong = bid.amount > 0 ? outsideOffer(toCents(bid.amount), offer) : undefined;
    if (['amount', 'too-low', 'not-multiple', 'below-best-step'].includes(message.code) && wrong) return wrong;
    return t('refusal')[message.code] ?? message.message ?? message.code;
  }

  return { stageName, labelOf, outsideOffer, ruleOf, waitOf, endLines, explain };
}
