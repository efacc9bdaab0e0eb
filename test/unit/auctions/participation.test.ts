import { afterEach, describe, expect, it } from 'vitest';
import { participationKey, participationUrl, participationUrlOf } from '../../../functions/domain/auctions/bids.ts';
import { DEV_PARTICIPATION_SECRET, participationSecret } from '../../../functions/store/participation-secret.ts';
import { resetConfig } from '../../../functions/runtime/config.ts';

describe('participation links', () => {
  const A = 'a'.repeat(32);
  const B = 'b'.repeat(32);

  it('keys a link with an HMAC of the auction and bid ids under the secret', () => {
    const key = participationKey('s3cret', A, B);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).toBe(participationKey('s3cret', A, B));
    expect(key).not.toBe(participationKey('other', A, B));
    expect(key).not.toBe(participationKey('s3cret', B, A));
    expect(participationUrl('https://auction.test/auctions/x', B, key)).toBe(
      `https://auction.test/auctions/x/login?bidder_id=${B}&signature=${key}`,
    );
    expect(participationUrlOf({ auctionSite: 'https://auction.test', participationSecret: 's3cret' }, A, B)).toBe(
      `https://auction.test/auctions/${A}/login?bidder_id=${B}&signature=${key}`,
    );
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
