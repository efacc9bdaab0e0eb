import { describe, expect, it } from 'vitest';
import { pyRepr } from '../../../functions/domain/schemas/python-messages.ts';

describe('pyRepr', () => {
  it('writes JSON scalars as Python does', () => {
    expect([null, true, false, 0, -7, 1.5].map(pyRepr)).toEqual(['None', 'True', 'False', '0', '-7', '1.5']);
  });

  it('writes floats outside [1e-4, 1e16) in Python exponent form', () => {
    expect(pyRepr(0.00001)).toBe('1e-05');
    expect(pyRepr(1.5e-7)).toBe('1.5e-07');
    expect(pyRepr(0.0001)).toBe('0.0001');
  });

  it('quotes strings with single quotes unless they contain only single quotes', () => {
    expect(pyRepr('державна')).toBe("'державна'");
    expect(pyRepr("it's")).toBe(`"it's"`);
    expect(pyRepr(`it's "x"`)).toBe(`'it\\'s "x"'`);
    expect(pyRepr('a\nb\\')).toBe("'a\\nb\\\\'");
  });

  it('writes lists and dicts with Python separators', () => {
    expect(pyRepr(['04', '341', '06'])).toBe("['04', '341', '06']");
    expect(pyRepr({ a: [1, true] })).toBe("{'a': [1, True]}");
  });
});
