/**
 * CAV / CPV classification codes: eight digits, a dash and a check digit (`06000000-2`).
 *
 * The check digit is the documented CPV one: weights 3, 7, 1 repeated from the first digit,
 * sum modulo 10. It reproduces the land-parcel ids (`06000000-2`, `06100000-3`) and most of the
 * published CPV 2008 list; the published list has known errata (e.g. `03300000-2` where the
 * algorithm gives 4, `03410000-7` where it gives 8) that the EU Publications Office has said it
 * will not fix, so never use this to reject a code taken from the official list.
 */

const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7] as const;
const EIGHT_DIGITS = /^\d{8}$/;

/** The check digit of an eight-digit code (`'06000000'` → 2). Throws on anything else. */
export function cavCheckDigit(code: string): number {
  if (!EIGHT_DIGITS.test(code)) throw new Error(`not an eight-digit classification code: ${code}`);
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += WEIGHTS[i] * Number(code[i]);
  return sum % 10;
}

/** `'06100000'` → `'06100000-3'`. */
export const withCheckDigit = (code: string): string => `${code}-${cavCheckDigit(code)}`;

/** True when `id` is `<8 digits>-<digit>` and the digit is the computed one. */
export function hasValidCheckDigit(id: string): boolean {
  const match = /^(\d{8})-(\d)$/.exec(id);
  return match !== null && cavCheckDigit(match[1]) === Number(match[2]);
}
