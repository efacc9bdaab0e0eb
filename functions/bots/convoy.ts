import type { Auction } from '#domain/auctions/auction.ts';
import { itemsFromAssets, refuseFromLot, releaseFromLot } from '#domain/auctions/from-lot.ts';
import { planConvoy } from '#domain/convoy/plan.ts';
import type { Aggregate } from '#domain/kernel/aggregate.ts';
import { DomainError } from '#domain/kernel/errors.ts';
import type { Timing } from '#domain/calendar/periods.ts';
import { decideLotPatch } from '#domain/lots/commands.ts';
import type { Lot } from '#domain/lots/lot.ts';
import { botAuthor } from '#domain/kernel/principal.ts';
import { laterThan } from '#domain/kernel/time.ts';
import { timing } from '#runtime/contexts.ts';
import { recordTransition } from '#runtime/observability.ts';
import { ASSET_KIND } from '#store/asset-repository.ts';
import { AUCTION_KIND, auctionRepository } from '#store/auction-repository.ts';
import { loadRoots } from '#store/batch.ts';
import { isConditionFailure } from '#store/errors.ts';
import { LOT_KIND, lotRepository } from '#store/lot-repository.ts';
import { transact, type AggregateWrite } from '#store/transactions.ts';
import { type BotReport, runDue } from '#runtime/work-index.ts';

/**
 * The convoy: joins auctions created from a lot (`merchandisingObject`) with their lot. It Queries the bot-work
 * index (never Scans), decides each step with `planConvoy`, and writes lot and auction together in one transaction
 * conditioned on both revisions; lot changes go through the same PATCH decision as the API, as the `convoy` role.
 */
const MAX_STEPS = 3;
const MAX_ATTEMPTS = 5;

const reasonOf = (error: DomainError) =>
  error.entries
    .map((e) => (typeof e.description === 'string' ? e.description : `${e.name}: ${JSON.stringify(e.description)}`))
    .join('; ');

/** One step for one auction; false when there is nothing (more) to do. */
async function step(id: string, run: Timing): Promise<boolean> {
  const auction = await auctionRepository.get(id);
  if (!auction?.root.merchandisingObject) return false;
  // The auction's changes are dated after its last one, whatever the bot's clock (the lot's: after the lot's).
  const now = laterThan(run.now, auction.root.dateModified);
  const timing = { ...run, now };
  const lot = await lotRepository.get(auction.root.merchandisingObject);
  const plan = planConvoy(auction.root, lot?.root, !!auction.internal?.lotReported);
  if (!plan) return false;
  const lotWrite = (patch: { status: string; auctions?: string[] }): AggregateWrite[] => {
    const root = lot && decideLotPatch(lot.root, 'convoy', patch, laterThan(now, lot.root.dateModified));
    return root
      ? [{ def: LOT_KIND, current: lot as Aggregate<Lot>, change: { root }, author: botAuthor('convoy') }]
      : [];
  };
  const auctionWrite = (root: Auction, internal = auction.internal): AggregateWrite => ({
    def: AUCTION_KIND,
    current: auction,
    change: { root, internal },
    author: botAuthor('convoy'),
  });
  const lotCheck = lot ? [{ def: LOT_KIND, current: lot }] : [];
  const refuse = (reason: string) => {
    const giveBack = lot?.root.status === 'active.awaiting' && lot.root.auctions?.at(-1) === id;
    return transact(
      [
        auctionWrite(refuseFromLot(auction.root, reason, now)),
        ...(giveBack ? lotWrite({ status: 'active.salable' }) : []),
      ],
      giveBack ? [] : lotCheck,
    );
  };

  switch (plan.step) {
    case 'claim':
      await transact(lotWrite(plan.lotPatch), [{ def: AUCTION_KIND, current: auction }]);
      recordTransition('claim');
      return true;
    case 'release': {
      const assets = await loadRoots(ASSET_KIND, lot!.root.assets);
      const items = itemsFromAssets([...assets.values()].flatMap((a) => (a ? [a.root] : [])));
      let released: Auction;
      try {
        if (!items.length)
          throw new DomainError(403, {
            location: 'body',
            name: 'items',
            description: 'The lot has no assets to sell.',
          });
        released = releaseFromLot(auction.root, items, timing); // a landlease release counts its periods
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        await refuse(`The lot's assets do not make a valid auction: ${reasonOf(error)}`);
        recordTransition('refuse');
        return true;
      }
      await transact([auctionWrite(released), ...lotWrite({ status: 'active.auction' })]);
      recordTransition('release');
      return true;
    }
    case 'refuse':
      await refuse(plan.reason);
      recordTransition('refuse');
      return true;
    case 'report':
      await transact(
        [
          auctionWrite(auction.root, { ...auction.internal, lotReported: true }),
          ...(plan.lotPatch ? lotWrite(plan.lotPatch) : []),
        ],
        plan.lotPatch ? [] : lotCheck,
      );
      recordTransition('report');
      return true;
  }
}

async function convey(id: string, timing: Timing): Promise<boolean> {
  let changed = false;
  for (let steps = 0, attempts = 0; steps < MAX_STEPS && attempts < MAX_ATTEMPTS; ) {
    try {
      if (!(await step(id, timing))) break;
      changed = true;
      steps++;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      attempts++;
    }
  }
  return changed;
}

export function run(): Promise<BotReport> {
  return runDue('convoy', AUCTION_KIND, async (id, now) => convey(id, await timing(now)));
}

export const handler = async (): Promise<BotReport> => run();
