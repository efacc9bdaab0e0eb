import { describe, expect, it } from 'vitest';
import { AddressBuckets } from '../../../functions/runtime/address-limits.ts';
import { readConfig } from '../../../functions/platform/config.ts';

describe('AddressBuckets', () => {
  it('admits a burst per address, then says how long to wait, and refills at the rate', () => {
    const buckets = new AddressBuckets({ rate: 1, burst: 3 });
    const t = 1_000_000;
    expect([1, 2, 3].map(() => buckets.spend('10.0.0.1', t))).toEqual([undefined, undefined, undefined]);
    expect(buckets.spend('10.0.0.1', t)).toBe(1);
    expect(buckets.spend('10.0.0.2', t)).toBeUndefined();
    expect(buckets.spend('10.0.0.1', t + 1000)).toBeUndefined();
    expect(buckets.spend('10.0.0.1', t + 1000)).toBe(1);
  });

  it('forgets the least recently seen address beyond its capacity', () => {
    const buckets = new AddressBuckets({ rate: 1, burst: 1 }, 2);
    for (const address of ['a', 'b', 'c']) buckets.spend(address, 0);
    expect(buckets.waitFor('a', 0)).toBeUndefined();
    expect(buckets.waitFor('c', 0)).toBe(1);
  });

  it('takes a refusal from elsewhere and keeps the address waiting until it is over', () => {
    const buckets = new AddressBuckets({ rate: 2, burst: 4 });
    buckets.remember('a', 10_000 + 1500 + 3 * 500);
    expect(buckets.waitFor('a', 10_000)).toBe(2);
    expect(buckets.waitFor('a', 11_600)).toBeUndefined();
  });
});

describe('the per-address limit of the configuration', () => {
  it('is on in Lambda by default, off locally unless set, and off with 0', () => {
    expect(readConfig({ AWS_LAMBDA_FUNCTION_NAME: 'f' }).addressRate).toEqual({ rate: 1, burst: 10 });
    expect(readConfig({}).addressRate).toBeUndefined();
    expect(readConfig({ AGORA_ADDRESS_RATE: '5', AGORA_ADDRESS_BURST: '7' }).addressRate).toEqual({
      rate: 5,
      burst: 7,
    });
    expect(readConfig({ AWS_LAMBDA_FUNCTION_NAME: 'f', AGORA_ADDRESS_RATE: '0' }).addressRate).toBeUndefined();
  });
});
