import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  itemModel as bounceItemModel,
  decisionModel,
  relatedProcessModel,
  assetModel as bounceAssetModel,
} from '../../../functions/domain/assets/types/bounce/definition.ts';
import { assetModel as basicAssetModel } from '../../../functions/domain/assets/types/basic/definition.ts';
import { awardModel, contractModel } from '../../../functions/domain/auctions/awarding.ts';
import { auctionResultsModel } from '../../../functions/domain/auctions/commands.ts';
import { questionModel } from '../../../functions/domain/auctions/questions.ts';
import { bidModel as insiderBidModel } from '../../../functions/domain/auctions/types/dgf-insider/bids.ts';
import {
  auctionModel as insiderAuctionModel,
  itemModel as insiderItemModel,
} from '../../../functions/domain/auctions/types/dgf-insider/schema.ts';
import { bidModel as landleaseBidModel } from '../../../functions/domain/auctions/types/landlease/bids.ts';
import {
  auctionModel as landleaseAuctionModel,
  itemModel as landleaseItemModel,
} from '../../../functions/domain/auctions/types/landlease/schema.ts';
import { cancellationModel } from '../../../functions/domain/auctions/cancellations.ts';
import { prolongationModel } from '../../../functions/domain/auctions/prolongations.ts';
import { documentModel, lotDocumentModel } from '../../../functions/domain/documents/documents.ts';
import { lotModel } from '../../../functions/domain/lots/lot.ts';
import { fieldsOf, type ObjectModel } from '../../../functions/domain/protocol/model.ts';
import { partModels } from '../../../functions/domain/protocol/parts.ts';

/**
 * Every declaration against the field list of the original model it names (upstream-fields.json, written from the
 * originals): a field cannot be added to one and not the other. Agora's own fields are declared as `ours`.
 */
const snapshot: Record<string, { source: string; fields: string[] }> = JSON.parse(
  readFileSync(new URL('./upstream-fields.json', import.meta.url), 'utf8'),
);

const declarations: Record<string, ObjectModel> = {
  ...partModels,
  Lot: lotModel,
  BounceAsset: bounceAssetModel,
  BasicAsset: basicAssetModel,
  BounceItem: bounceItemModel,
  Decision: decisionModel,
  RelatedProcess: relatedProcessModel,
  DgfInsiderItem: insiderItemModel,
  LandleaseItem: landleaseItemModel,
  DgfInsiderBid: insiderBidModel,
  LandleaseBid: landleaseBidModel,
  Award: awardModel,
  Contract: contractModel,
  Prolongation: prolongationModel,
  Question: questionModel,
  AuctionResults: auctionResultsModel,
  DgfInsiderAuction: insiderAuctionModel,
  LandleaseAuction: landleaseAuctionModel,
  Cancellation: cancellationModel,
  Document: documentModel,
  LotDocument: lotDocumentModel,
};

describe('the protocol declarations hold the original models', () => {
  it('has a snapshot entry for every declaration, and a declaration for every entry', () => {
    const entries = Object.keys(snapshot).filter((k) => !k.startsWith('_'));
    expect(Object.keys(declarations).sort()).toEqual(entries.sort());
  });

  it.each(Object.entries(declarations))('%s knows the original fields, and marks the others as ours', (name, model) => {
    const ours = Object.keys(model.ours ?? {});
    const upstream = fieldsOf(model).filter((f) => !ours.includes(f));
    expect(upstream.sort()).toEqual([...snapshot[name]!.fields].sort());
    expect(model.source).not.toBe('');
    for (const f of [...ours, ...Object.keys(model.refused ?? {})]) expect(fieldsOf(model)).toContain(f);
  });
});
