import { describe, expect, it } from 'vitest';
import { newSecret, sign, signatureHeader, verify } from '../../../functions/domain/webhooks/signature.ts';

// The Standard Webhooks reference libraries' own example (secret, id, timestamp, payload -> signature).
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TIMESTAMP = 1614265330;
const PAYLOAD = '{"test": 2432232314}';

describe('webhook signatures (Standard Webhooks 1.0)', () => {
  it('signs as the reference libraries do: v1, base64 HMAC-SHA256 of id.timestamp.body by the decoded secret', () => {
    expect(sign(SECRET, ID, TIMESTAMP, PAYLOAD)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('verifies any of the space-separated signatures, and nothing else', () => {
    const other = newSecret();
    const header = signatureHeader([other, SECRET], ID, TIMESTAMP, PAYLOAD);
    expect(header.split(' ')).toHaveLength(2);
    expect(verify(SECRET, ID, TIMESTAMP, PAYLOAD, header)).toBe(true);
    expect(verify(other, ID, TIMESTAMP, PAYLOAD, header)).toBe(true);
    expect(verify(newSecret(), ID, TIMESTAMP, PAYLOAD, header)).toBe(false);
    expect(verify(SECRET, ID, TIMESTAMP + 1, PAYLOAD, header)).toBe(false);
    expect(verify(SECRET, ID, TIMESTAMP, `${PAYLOAD} `, header)).toBe(false);
  });

  it('makes secrets of 32 random bytes behind whsec_', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSecret()).not.toBe(secret);
  });
});
