import type { Aggregate } from '../kernel/aggregate.ts';
import { NotFoundError, PermissionError, UnprocessableError } from '../kernel/errors.ts';
import { newId } from '../kernel/ids.ts';
import { mergePatch, omit, sameJson, withoutField, type JsonRecord } from '../kernel/objects.ts';
import { actingRole, authorOf } from '../kernel/principal.ts';
import { formatKyiv } from '../kernel/time.ts';
import type { Asset, AssetTypeDefinition, RelatedProcess } from './asset.ts';
import type { AssetsContext } from './commands.ts';
import { findRelatedProcess, relatedProcessesOf } from './reads.ts';
import { assertKeepsLot, lotOf } from './rules.ts';

/**
 * `/assets/{id}/related_processes` (bounce; upstream `BounceRelatedProcessesManager`): the concierge links an asset
 * to a lot by a related process `{id, type: "lot", relatedProcessID, identifier}`, shown on the asset as
 * `relatedProcesses`. Attaching, activating and detaching then go through the asset's status as with `relatedLot`.
 */

function processesOf(type: AssetTypeDefinition): NonNullable<AssetTypeDefinition['relatedProcesses']> {
  if (!type.relatedProcesses) throw new NotFoundError('asset_id');
  return type.relatedProcesses;
}

/** Only the concierge (and an admin) writes related processes (upstream ACL `g:concierge`). */
function assertWriter(ctx: AssetsContext, a: Aggregate<Asset>): void {
  const role = actingRole(ctx.principal, { owner: a.root.owner, tokenHash: a.tokenHash });
  if (role !== 'concierge' && role !== 'admin') throw new PermissionError();
}

/** The asset with its new list; an active asset must keep a lot (upstream model check), and its own lot. */
function withProcesses(asset: Asset, processes: RelatedProcess[]): Asset {
  const next = processes.length ? { ...asset, relatedProcesses: processes } : withoutField(asset, 'relatedProcesses');
  if (next.status === 'active' && !lotOf(next)) {
    throw UnprocessableError.field('relatedProcesses', 'Asset must have related lot to become active.');
  }
  assertKeepsLot(asset, next);
  return next;
}

export async function addRelatedProcess(ctx: AssetsContext, id: string, data: JsonRecord): Promise<RelatedProcess> {
  const rules = processesOf(ctx.type);
  let added: RelatedProcess | undefined;
  await ctx.assets.modify(
    id,
    (current, now) => {
      if (current.root.assetType !== ctx.type.assetType) throw new NotFoundError('asset_id');
      assertWriter(ctx, current);
      const process = rules.accept(omit(data, ['id']), ctx.createdId ?? newId());
      const processes = [...relatedProcessesOf(current.root), process];
      if (processes.length > rules.max) {
        throw UnprocessableError.field(
          'relatedProcesses',
          `Please provide no more than ${rules.max} item${rules.max === 1 ? '' : 's'}.`,
        );
      }
      added = process;
      return { root: { ...withProcesses(current.root, processes), dateModified: formatKyiv(now) } };
    },
    { at: ctx.now, by: authorOf(ctx.principal) },
  );
  return added!;
}

export async function patchRelatedProcess(
  ctx: AssetsContext,
  id: string,
  processId: string,
  data: JsonRecord,
): Promise<RelatedProcess> {
  const rules = processesOf(ctx.type);
  let result: RelatedProcess | undefined;
  await ctx.assets.modify(
    id,
    (current, now) => {
      if (current.root.assetType !== ctx.type.assetType) throw new NotFoundError('asset_id');
      assertWriter(ctx, current);
      const previous = findRelatedProcess(current.root, processId);
      const process = rules.accept(omit(mergePatch(previous, omit(data, ['id'])), ['id']), processId);
      result = process;
      if (sameJson(process, previous)) return undefined;
      const processes = relatedProcessesOf(current.root).map((rp) => (rp === previous ? process : rp));
      return { root: { ...withProcesses(current.root, processes), dateModified: formatKyiv(now) } };
    },
    { at: ctx.now, by: authorOf(ctx.principal) },
  );
  return result!;
}

/** Removing a related process does not move the asset's `dateModified` (upstream `modified = False`). */
export async function deleteRelatedProcess(ctx: AssetsContext, id: string, processId: string): Promise<void> {
  processesOf(ctx.type);
  await ctx.assets.modify(
    id,
    (current) => {
      if (current.root.assetType !== ctx.type.assetType) throw new NotFoundError('asset_id');
      assertWriter(ctx, current);
      const previous = findRelatedProcess(current.root, processId);
      return {
        root: withProcesses(
          current.root,
          relatedProcessesOf(current.root).filter((rp) => rp !== previous),
        ),
      };
    },
    { at: ctx.now, by: authorOf(ctx.principal) },
  );
}
