import { afterEach, describe, expect, it } from 'vitest';
import { auctionUrlOf, participationUrlOf } from '../../../functions/domain/auctions/bids.ts';
import { pythonQuote, ROOM_LINKS, verifyKeyHex } from '../../../functions/domain/auctions/room-links.ts';
import { DEV_PARTICIPATION_SECRET, participationSecret } from '../../../functions/store/participation-secret.ts';
import { resetConfig } from '../../../functions/platform/config.ts';

describe('participation links', () => {
  // spec/auction-room.md: the seed, auction and bids of openprocurement.auctions.insider's recorded tutorial.
  const SEED = 'fe3b3b5999a08e68dfe62687c2ae147f62712ceace58c1ffca8ea819eabcb5d1';
  const insider = { id: 'ca31727f31f243b089cbc005b8fda5ba', procurementMethodType: 'dgfInsider' };
  const site = { auctionSite: 'http://auction-sandbox.openprocurement.org', participationSecret: SEED };

  it('reproduces the original 2.3 participation links byte for byte (bidder-participation-url.http, bidder2-)', () => {
    expect(verifyKeyHex(SEED)).toBe('b0cf560a77eb367fba1be5204614c49be7bba7685c3633c7d09d37371136c2b0');
    expect(auctionUrlOf(site.auctionSite, insider)).toBe(
      'http://auction-sandbox.openprocurement.org/insider-auctions/ca31727f31f243b089cbc005b8fda5ba',
    );
    expect(participationUrlOf(site, insider, '2d61cec5ecd340d5b72e8193a84ec6e1')).toBe(
      'http://auction-sandbox.openprocurement.org/insider-auctions/ca31727f31f243b089cbc005b8fda5ba/login?bidder_id=2d61cec5ecd340d5b72e8193a84ec6e1&signature=06SLpa1457CetL%2BUdB3Pza%2B6xacncLA8MFnKtQx%2B%2BFgm94uCVjeSxSqRtVlCIPQR1Ng64Mg5%2BMxy0GDRUFZBCw%3D%3D',
    );
    expect(participationUrlOf(site, insider, '86459d45ea7847a199f1ad3b0b983b05')).toBe(
      'http://auction-sandbox.openprocurement.org/insider-auctions/ca31727f31f243b089cbc005b8fda5ba/login?bidder_id=86459d45ea7847a199f1ad3b0b983b05&signature=QEZ4%2BaAV1nTEGT%2BpXO2kWbk0NMp7rhadzC2IytuwSBzMD/BNsvVpYoi78aA24FC3u1HTJJILvdhsBcrbreVODQ%3D%3D',
    );
  });

  it('verifies a 2.3 signature only for its own auction and bid', () => {
    const bid = '2d61cec5ecd340d5b72e8193a84ec6e1';
    const other = '86459d45ea7847a199f1ad3b0b983b05';
    const sig = decodeURIComponent(ROOM_LINKS.dgfInsider.key(SEED, insider.id, bid));
    expect(ROOM_LINKS.dgfInsider.verify(SEED, insider.id, bid, sig)).toBe(true);
    expect(ROOM_LINKS.dgfInsider.verify(SEED, insider.id, other, sig)).toBe(false);
    expect(ROOM_LINKS.dgfInsider.verify(SEED, 'f'.repeat(32), bid, sig)).toBe(false);
    expect(ROOM_LINKS.dgfInsider.verify('another secret', insider.id, bid, sig)).toBe(false);
    expect(ROOM_LINKS.dgfInsider.verify(SEED, insider.id, bid, 'not base64!')).toBe(false);
  });

  it('makes and verifies the original 2.5 hash (openprocurement.auction.texas tests/unit/test_server.py)', () => {
    const secret = '0478095c8ece0bbc11f94663ac2c4f10b29666de';
    const bid = '5675acc9232942e8940a034994ad883e';
    const landlease = { id: 'a'.repeat(32), procurementMethodType: 'landlease' };
    expect(
      participationUrlOf({ auctionSite: 'http://localhost:8090', participationSecret: secret }, landlease, bid),
    ).toBe(
      `http://localhost:8090/texas-auctions/${'a'.repeat(32)}/login?bidder_id=${bid}&hash=bd4a790aac32b73e853c26424b032e5a29143d1f`,
    );
    expect(ROOM_LINKS.landlease.verify(secret, landlease.id, bid, 'bd4a790aac32b73e853c26424b032e5a29143d1f')).toBe(
      true,
    );
    expect(ROOM_LINKS.landlease.verify(secret, landlease.id, bid, 'bd4a790aac32b73e853c26424b032e5a29143d1e')).toBe(
      false,
    );
    expect(ROOM_LINKS.landlease.verify(secret, landlease.id, bid, 'short')).toBe(false);
  });

  it('quotes as Python 2 urllib.quote: slashes kept, the rest of base64 escaped', () => {
    expect(pythonQuote('a+b/c=d_e.f-g h')).toBe('a%2Bb/c%3Dd_e.f-g%20h');
  });
});

describe('participation secret', () => {
  const saved = { secret: process.env.AGORA_PARTICIPATION_SECRET, local: process.env.AGORA_LOCAL };
  const restore = (name: string, value: string | undefined) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  afterEach(() => {
    restore('AGORA_PARTICIPATION_SECRET', saved.secret);
    restore('AGORA_LOCAL', saved.local);
    resetConfig();
  });

  it('takes AGORA_PARTICIPATION_SECRET when it is set', async () => {
    process.env.AGORA_PARTICIPATION_SECRET = 'from-env';
    resetConfig();
    expect(await participationSecret()).toBe('from-env');
  });

  it('falls back to the documented dev secret only in the local runtime', async () => {
    delete process.env.AGORA_PARTICIPATION_SECRET;
    process.env.AGORA_LOCAL = '1';
    resetConfig();
    expect(await participationSecret()).toBe(DEV_PARTICIPATION_SECRET);
    delete process.env.AGORA_LOCAL;
    resetConfig();
    await expect(participationSecret()).rejects.toThrow(/AGORA_PARTICIPATION_SECRET is not set/);
  });
});
