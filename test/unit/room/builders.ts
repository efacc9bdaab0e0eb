import { formatKyiv, parseInstant } from '../../../functions/domain/kernel/time.ts';
import type { RoomAuction } from '../../../functions/domain/room/engine.ts';

/** Builders for the room's unit tests: auctions, instants. */

export const micros = (text: string): number => {
  const at = parseInstant(text);
  if (at === undefined) throw new Error(`bad instant ${text}`);
  return at;
};

/** `text` moved by `seconds` (fractions allowed), as the room writes instants. */
export const plus = (text: string, seconds: number): string => formatKyiv(micros(text) + Math.round(seconds * 1e6));

export const bidders = (n: number, nameLength = 20) =>
  Array.from({ length: n }, (_, i) => ({
    bidId: `bid${String(i + 1).padStart(30, '0')}`,
    name: `Bidder company ${i + 1} `.padEnd(nameLength, 'x'),
    date: formatKyiv(micros('2026-11-20T10:00:00+02:00') + i * 1_000_000),
  }));

export function insiderAuction(overrides: Partial<RoomAuction> = {}): RoomAuction {
  return {
    id: 'a'.repeat(32),
    procurementMethodType: 'dgfInsider',
    startDate: '2026-11-24T10:00:00+02:00',
    value: { amount: 1_000_000, currency: 'UAH', valueAddedTaxIncluded: true },
    title: 'Right of claim',
    procuringEntityName: 'Bank',
    bidders: bidders(3),
    ...overrides,
  };
}

export function landleaseAuction(overrides: Partial<RoomAuction> = {}): RoomAuction {
  return {
    id: 'b'.repeat(32),
    procurementMethodType: 'landlease',
    startDate: '2026-11-24T10:00:00+02:00',
    value: { amount: 1000, currency: 'UAH', valueAddedTaxIncluded: false },
    minimalStep: { amount: 100 },
    title: 'Land lease',
    bidders: bidders(3),
    ...overrides,
  };
}

/** Planning happens before every start the tests use. */
export const PLANNED_AT = '2026-06-01T09:00:00+03:00';
