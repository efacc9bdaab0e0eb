import { describe, expect, it } from 'vitest';
import { putApiKey } from '../../../functions/store/api-keys.ts';
import { aBounceAsset, anItem, ASSET_TYPES, createAsset, TYPE_NAMES } from '../../support/assets.ts';
import { anOrganization } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { useChangeStream } from '../../support/webhooks.ts';

const service = useService({ changeStream: true });
/** The listings read the journal, which the table's stream feeds. */
const journal = useChangeStream();
const api = client(() => service.url);

const KYIV_DATE = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Kyiv' }).format(new Date());

describe('asset creation', () => {
  it.each(TYPE_NAMES)('creates a %s asset in draft with its token, Location and a numbered assetID', async (type) => {
    const { path, build, assetID } = ASSET_TYPES[type];
    const res = await api.post(path, build());
    expect(res.status).toBe(201);
    const asset = res.body.data;
    expect(res.headers.get('location')).toBe(`${service.url}${path}/${asset.id}`);
    expect(res.body.access.token).toMatch(/^[0-9a-f]{32}$/);
    expect(asset).toMatchObject({ assetType: type, status: 'draft', owner: 'broker', title: 'Земля для космодрому' });
    expect(asset.id).toMatch(/^[0-9a-f]{32}$/);
    expect(asset.assetID).toMatch(assetID);
    expect(asset.assetID).toContain(`-${KYIV_DATE()}-`);
    expect(asset.date).toBe(asset.dateModified);
    expect(asset.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?\+0[23]:00$/);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect((await api.get(`${path}/${asset.id}`)).body.data).toEqual(asset);
  });

  it.each(TYPE_NAMES)('numbers %s assets in sequence within the day', async (type) => {
    const first = await createAsset(api, type);
    const second = await createAsset(api, type);
    const n = (id: string) => Number(id.slice(-6));
    expect(n(second.asset.assetID)).toBe(n(first.asset.assetID) + 1);
  });

  it('adds the informationDetails document to a bounce asset', async () => {
    const { asset } = await createAsset(api, 'bounce');
    expect(asset.documents).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        title: 'Інформація про оприлюднення інформаційного повідомлення',
        url: 'https://prozorro.sale/info/ssp_details',
        documentType: 'informationDetails',
        documentOf: 'asset',
        datePublished: asset.date,
        dateModified: asset.date,
      },
    ]);
  });

  it('gives bounce items server ids and keeps decimal quantities and registration details', async () => {
    const sent = aBounceAsset({ items: [anItem({ id: '0' }), anItem({ id: '0', quantity: 0.5 })] });
    const { asset } = await createAsset(api, 'bounce', sent);
    const [a, b] = asset.items;
    expect(a.id).toMatch(/^[0-9a-f]{32}$/);
    expect(b.id).toMatch(/^[0-9a-f]{32}$/);
    expect(a.id).not.toBe(b.id);
    expect(a.quantity).toBe(5.0001);
    expect(b.quantity).toBe(0.5);
    expect(a.registrationDetails).toEqual({ status: 'unknown' });
    expect(asset.decisions).toEqual(
      sent.decisions.map((d: object) => ({ ...d, id: expect.stringMatching(/^[0-9a-f]{32}$/), decisionOf: 'asset' })),
    );
  });

  it('fills in the value of a basic asset (VAT included, UAH) and adds no document', async () => {
    const { asset } = await createAsset(api, 'basic', { value: { amount: 100 } });
    expect(asset.value).toEqual({ amount: 100, currency: 'UAH', valueAddedTaxIncluded: true });
    expect(asset).not.toHaveProperty('documents');
  });

  it.each(TYPE_NAMES)('ignores server fields a client sends for a %s asset', async (type) => {
    const { asset } = await createAsset(api, type, {
      id: 'x',
      assetID: 'x',
      owner: 'someone',
      status: 'active',
      date: '2020-01-01',
      relatedLot: 'a'.repeat(32),
      rectificationPeriod: {},
    });
    expect(asset.id).not.toBe('x');
    expect(asset.owner).toBe('broker');
    expect(asset.status).toBe('draft');
    expect(asset).not.toHaveProperty('relatedLot');
    expect(asset).not.toHaveProperty('rectificationPeriod');
  });

  it.each(TYPE_NAMES)('marks the titles of a %s asset in test mode and lists it only with mode=test', async (type) => {
    const asset = await createAsset(api, type, { mode: 'test' });
    expect(asset.asset.title).toBe('[ТЕСТУВАННЯ] Земля для космодрому');
    await api.patch(asset.url, { status: 'pending' }, { token: asset.token });
    const path = ASSET_TYPES[type].path;
    await journal.drained();
    const test = await api.get(`${path}?mode=test`);
    expect(test.body.data.map((r: any) => r.id)).toContain(asset.id);
    const real = await api.get(path);
    expect(real.body.data.map((r: any) => r.id)).not.toContain(asset.id);
  });
});

describe('asset creation refusals', () => {
  it.each(TYPE_NAMES)('answers an assetType its path does not serve with 415 (%s path)', async (type) => {
    const { path, build } = ASSET_TYPES[type];
    for (const other of ['compound', type === 'bounce' ? 'basic' : 'bounce']) {
      const res = await api.post(path, build({ assetType: other }));
      expect(res.status).toBe(415);
      expect(res.body.errors).toEqual([{ location: 'body', name: 'assetType', description: 'Not implemented' }]);
    }
  });

  it.each(TYPE_NAMES)('refuses bots and anonymous callers (%s)', async (type) => {
    const { path, build } = ASSET_TYPES[type];
    for (const bot of ['concierge', 'convoy', 'chronograph']) {
      const res = await api.post(path, build(), { as: bot });
      expect(res.status).toBe(403);
      expect(res.body.errors).toEqual([{ location: 'url', name: 'permission', description: 'Forbidden' }]);
    }
    const anonymous = await api.call('POST', path, build());
    expect(anonymous.status).toBe(401);
  });

  it('refuses a broker whose accreditation does not allow bounce assets (level 3), but not basic ones', async () => {
    await putApiKey('broker-level-1', { name: 'broker-level-1', role: 'broker', levels: '1' });
    const bounce = await api.post(ASSET_TYPES.bounce.path, ASSET_TYPES.bounce.build(), { as: 'broker-level-1' });
    expect(bounce.status).toBe(403);
    expect(bounce.body.errors).toEqual([
      {
        location: 'body',
        name: 'accreditation',
        description: 'Broker Accreditation level does not permit asset creation',
      },
    ]);
    const basic = await api.post(ASSET_TYPES.basic.path, ASSET_TYPES.basic.build(), { as: 'broker-level-1' });
    expect(basic.status).toBe(201);
  });

  it('lets a test-only broker create only in test mode', async () => {
    await putApiKey('broker-test', { name: 'broker-test', role: 'broker', levels: '3t' });
    const real = await api.post(ASSET_TYPES.bounce.path, ASSET_TYPES.bounce.build(), { as: 'broker-test' });
    expect(real.status).toBe(403);
    expect(real.body.errors[0]).toEqual({
      location: 'body',
      name: 'mode',
      description: 'Broker Accreditation level does not permit asset creation',
    });
    const test = await api.post(ASSET_TYPES.bounce.path, ASSET_TYPES.bounce.build({ mode: 'test' }), {
      as: 'broker-test',
    });
    expect(test.status).toBe(201);
  });

  it.each(TYPE_NAMES)('names every missing required field of a %s asset (422)', async (type) => {
    const { path, build } = ASSET_TYPES[type];
    const required =
      type === 'bounce' ? ['title', 'description', 'assetCustodian'] : ['title', 'classification', 'assetCustodian'];
    const res = await api.post(path, build(Object.fromEntries(required.map((f) => [f, undefined]))));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual(
      required.map((name) => ({ location: 'body', name, description: ['This field is required.'] })),
    );
  });

  it.each(TYPE_NAMES)('refuses rogue fields and wrong types in a %s asset (422)', async (type) => {
    const { path, build } = ASSET_TYPES[type];
    const res = await api.post(path, build({ colour: 'blue', title: 5 }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { location: 'body', name: 'colour', description: ['Rogue field'] },
        { location: 'body', name: 'title', description: ['Value must be of type string.'] },
      ]),
    );
  });

  it('checks each bounce item and decision (422 nested by index)', async () => {
    const res = await api.post(
      ASSET_TYPES.bounce.path,
      aBounceAsset({
        items: [
          anItem(),
          anItem({
            quantity: 'five',
            registrationDetails: { status: 'sold' },
            classification: { scheme: 'CAV-PS', id: '0612', description: 'x' },
          }),
        ],
        decisions: [{ decisionID: '1' }],
      }),
    );
    expect(res.status).toBe(422);
    const byName = Object.fromEntries(res.body.errors.map((e: any) => [e.name, e.description]));
    expect(byName.items).toEqual([
      {},
      {
        quantity: ['Value must be of type number.'],
        registrationDetails: { status: ["Value must be one of ['unknown', 'registering', 'complete']."] },
        classification: { id: ['String value did not match validation regex.'] },
      },
    ]);
    expect(byName.decisions).toEqual([{ decisionDate: ['This field is required.'] }]);
  });

  it('checks the value of a basic asset (422)', async () => {
    const res = await api.post(
      ASSET_TYPES.basic.path,
      ASSET_TYPES.basic.build({ value: { amount: -1, currency: 'UAHX' } }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        location: 'body',
        name: 'value',
        description: {
          amount: ['Value should be greater than or equal to 0.'],
          currency: ['String value is too long.'],
        },
      },
    ]);
  });

  it.each(TYPE_NAMES)('answers a body that is not JSON, or not {data}, as the envelope says (%s)', async (type) => {
    const { path } = ASSET_TYPES[type];
    const wrongType = await api.call('POST', path, undefined, {
      as: 'broker',
      raw: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(wrongType.status).toBe(415);
    const notJson = await api.call('POST', path, undefined, { as: 'broker', raw: '{' });
    expect(notJson.status).toBe(422);
    expect(notJson.body.errors[0]).toMatchObject({ location: 'body', name: 'data' });
    const noData = await api.call('POST', path, undefined, { as: 'broker', raw: '{"title":"x"}' });
    expect(noData.body.errors).toEqual([{ location: 'body', name: 'data', description: 'Data not available' }]);
  });
});

describe('organization directory fill-in', () => {
  const minimal = (id = '00037256') => ({
    identifier: { scheme: 'UA-EDR', id },
    contactPoint: { name: 'Державне управління справами', telephone: '0440000000' },
    address: { countryName: 'Україна' },
  });

  it.each(TYPE_NAMES)('fills name, identifier.uri and the address of a known custodian of a %s asset', async (type) => {
    const { asset } = await createAsset(api, type, { assetCustodian: minimal() });
    expect(asset.assetCustodian).toEqual({
      name: 'Державне управління справами',
      identifier: {
        scheme: 'UA-EDR',
        id: '00037256',
        uri: 'http://www.dus.gov.ua/',
        legalName: 'Державне управління справами',
      },
      contactPoint: { name: 'Державне управління справами', telephone: '0440000000' },
      address: {
        countryName: 'Україна',
        postalCode: '01220',
        region: 'м. Київ',
        locality: 'м. Київ',
        streetAddress: 'вул. Банкова, 11, корпус 1',
      },
    });
  });

  it.each(TYPE_NAMES)('keeps what the client sent over the directory (%s)', async (type) => {
    const sent = { ...minimal(), name: 'ДУС', address: { countryName: 'Україна', locality: 'Київ' } };
    const { asset } = await createAsset(api, type, { assetCustodian: sent });
    expect(asset.assetCustodian.name).toBe('ДУС');
    expect(asset.assetCustodian.address).toMatchObject({ locality: 'Київ', postalCode: '01220' });
  });

  it.each(TYPE_NAMES)('refuses an unknown custodian sent without its name (422, %s)', async (type) => {
    const { path, build } = ASSET_TYPES[type];
    const res = await api.post(path, build({ assetCustodian: minimal('99999999') }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        location: 'body',
        name: 'assetCustodian',
        description: [
          'Organization UA-EDR 99999999 is not in the organization directory: send its name and address in full.',
        ],
      },
    ]);
  });

  it('refuses an absurdly long identifier as unknown (422), without a lookup DynamoDB would reject', async () => {
    const res = await api.post(
      '/api/2.4/assets',
      ASSET_TYPES.bounce.build({ assetCustodian: minimal('9'.repeat(2100)) }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors[0].name).toBe('assetCustodian');
  });

  it.each(TYPE_NAMES)('accepts an unknown custodian sent in full (%s)', async (type) => {
    const custodian = anOrganization({ identifier: { scheme: 'UA-EDR', id: '99999999' } });
    const { asset } = await createAsset(api, type, { assetCustodian: custodian });
    expect(asset.assetCustodian).toEqual(custodian);
  });

  it('fills a custodian changed by PATCH too', async () => {
    const asset = await createAsset(api, 'bounce', {
      assetCustodian: anOrganization({ name: 'Інша', identifier: { scheme: 'UA-EDR', id: '99999999' } }),
    });
    const identifier = { scheme: 'UA-EDR', id: '00037256', uri: null };
    const res = await api.patch(asset.url, { assetCustodian: { name: null, identifier } }, { token: asset.token });
    expect(res.status).toBe(200);
    expect(res.body.data.assetCustodian.name).toBe('Державне управління справами');
    expect(res.body.data.assetCustodian.identifier.uri).toBe('http://www.dus.gov.ua/');
  });

  it('leaves a PATCH that removes the name without naming an identifier to the schema (422 name)', async () => {
    const asset = await createAsset(api, 'bounce');
    const res = await api.patch(asset.url, { assetCustodian: { name: null } }, { token: asset.token });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { location: 'body', name: 'assetCustodian', description: { name: ['This field is required.'] } },
    ]);
  });
});
