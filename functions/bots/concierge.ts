import { decideAssetPatch } from '#domain/assets/commands.ts';
import type { Asset } from '#domain/assets/asset.ts';
import { assetType } from '#domain/assets/types/registry.ts';
import { planSettlement } from '#domain/concierge/settlement.ts';
import type { Aggregate } from '#domain/kernel/aggregate.ts';
import { decideLotPatch } from '#domain/lots/commands.ts';
import type { Lot } from '#domain/lots/lot.ts';
import { botAuthor } from '#domain/kernel/principal.ts';
import { laterThan, type Micros } from '#domain/kernel/time.ts';
import { recordTransition } from '#runtime/observability.ts';
import { ASSET_KIND } from '#store/asset-repository.ts';
import { loadRoots } from '#store/batch.ts';
import { isConditionFailure } from '#store/errors.ts';
import { LOT_KIND, lotRepository } from '#store/lot-repository.ts';
import { MAX_TRANSACTION_ITEMS, transact, type AggregateWrite } from '#store/transactions.ts';
import { type BotReport, runDue } from '#runtime/work-index.ts';

/**
 * The concierge: settles lots and their assets (verification, recomposed, pending.dissolution, pending.deleted,
 * pending.sold). It Queries the bot-work index for due lots (never Scans), plans each step with the domain
 * (`planSettlement`) and applies it through the same PATCH decisions as the HTTP API, as the `concierge` role.
 *
 * Each step is one transaction conditioned on the revisions read (the lot, and every asset it writes). A lot
 * whose step changes more than 49 assets is written in chunks of 49 assets (each asset's change is two items: its
 * root and its revision), each with a check that the lot is unchanged, the lot itself in the last one; every step
 * is idempotent, so a crash between chunks is finished by the next run, which plans again from what is stored.
 */
const MAX_STEPS = 4;
const MAX_ATTEMPTS = 5;

type Step = 'moved' | 'settled' | 'idle';

async function step(id: string, now: Micros): Promise<Step> {
  const lot = await lotRepository.get(id);
  if (!lot) return 'idle';
  const assets = await loadRoots(ASSET_KIND, lot.root.assets);
  const plan = planSettlement(lot.root, new Map([...assets].map(([k, a]) => [k, a?.root])));
  if (!plan) return 'idle';
  const assetWrites: AggregateWrite[] = plan.assets.map((move) => {
    const current = assets.get(move.id) as Aggregate<Asset>;
    const root = decideAssetPatch(
      current,
      'concierge',
      { status: move.status, ...(move.relatedLot !== undefined && { relatedLot: move.relatedLot }) },
      assetType(current.root.assetType),
      laterThan(now, current.root.dateModified),
    );
    return { def: ASSET_KIND, current, change: { root: root ?? current.root }, author: botAuthor('concierge') };
  });
  const lotRoot =
    plan.lotStatus &&
    decideLotPatch(lot.root, 'concierge', { status: plan.lotStatus }, laterThan(now, lot.root.dateModified));
  const lotWrite: AggregateWrite[] = lotRoot
    ? [{ def: LOT_KIND, current: lot as Aggregate<Lot>, change: { root: lotRoot }, author: botAuthor('concierge') }]
    : [];
  // Each asset's change is two items (its root and its revision); a chunk leaves room for the lot's check or change.
  const chunk = Math.floor((MAX_TRANSACTION_ITEMS - 2) / 2);
  for (let i = 0; i < assetWrites.length - chunk; i += chunk) {
    await transact(assetWrites.slice(i, i + chunk), [{ def: LOT_KIND, current: lot }]);
  }
  const last = assetWrites.slice(Math.max(0, assetWrites.length - chunk));
  await transact([...last, ...lotWrite], lotWrite.length ? [] : [{ def: LOT_KIND, current: lot }]);
  for (const move of plan.assets) recordTransition(`asset ${assets.get(move.id)?.root.status}->${move.status}`);
  if (lotRoot) recordTransition(`lot ${lot.root.status}->${lotRoot.status}`);
  return lotWrite.length ? 'settled' : 'moved';
}

/** Runs the steps of one lot until it is settled; a lost race is planned again from the new state. */
async function settle(id: string, now: Micros): Promise<boolean> {
  let changed = false;
  for (let steps = 0, attempts = 0; steps < MAX_STEPS && attempts < MAX_ATTEMPTS; ) {
    try {
      const outcome = await step(id, now);
      if (outcome === 'idle') break;
      changed = true;
      steps++;
      if (outcome === 'settled') break;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      attempts++;
    }
  }
  return changed;
}

export const run = (): Promise<BotReport> => runDue('concierge', LOT_KIND, settle);

export const handler = async (): Promise<BotReport> => run();
