import { describe, expect, it } from 'vitest';
import { ASSET_TYPES, createAsset, LAND } from '../../support/assets.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

/** A basic asset is one classified thing: its own `schema_properties` are checked like an item's. */
describe('basic asset schema_properties', () => {
  const classification = (id: string) => ({ classification: { scheme: 'CPV', id, description: 'Земельні ділянки' } });

  it('accepts land-parcel properties of the 06 family and normalises code and version', async () => {
    const { asset } = await createAsset(api, 'basic', {
      ...classification('06200000-4'),
      schema_properties: { code: '062', properties: LAND },
    });
    expect(asset.schema_properties).toEqual({ code: '06', version: '001', properties: LAND });
  });

  it('uses the 061 family for a 0611 classification, so a missing city is a 422 on schema_properties', async () => {
    const res = await api.post(
      ASSET_TYPES.basic.path,
      ASSET_TYPES.basic.build({ schema_properties: { code: '0612', properties: LAND } }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { location: 'body', name: 'schema_properties', description: ["'city' is a required property"] },
    ]);
  });

  it('checks the properties again when the owner PATCHes them', async () => {
    const asset = await createAsset(api, 'basic', {
      ...classification('06000000-2'),
      schema_properties: { code: '06', properties: LAND },
    });
    const res = await api.patch(asset.url, { schema_properties: { properties: { area: 0 } } }, { token: asset.token });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].description).toEqual(['0 is less than the minimum of 1']);
    const ok = await api.patch(asset.url, { schema_properties: { properties: { area: 3 } } }, { token: asset.token });
    expect(ok.body.data.schema_properties.properties.area).toBe(3);
  });

  it('refuses a code outside the asset codes, and one that does not prefix the classification (422)', async () => {
    const outside = await api.post(
      ASSET_TYPES.basic.path,
      ASSET_TYPES.basic.build({ ...classification('03410000-7'), schema_properties: { code: '0341', properties: {} } }),
    );
    expect(outside.body.errors[0].description).toEqual(["schema_properties code must be one of ['04', '341', '06']."]);
    const mismatch = await api.post(
      ASSET_TYPES.basic.path,
      ASSET_TYPES.basic.build({ schema_properties: { code: '04', properties: {} } }),
    );
    expect(mismatch.body.errors[0].description).toEqual(['classification id mismatch with schema_properties code']);
  });
});
