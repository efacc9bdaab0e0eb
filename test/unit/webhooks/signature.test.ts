import { describe, expect, it } from 'vitest';
import { sign as edSign } from 'node:crypto';
import {
  newSecret,
  newSigningKey,
  publicKeyOf,
  sign,
  signatureHeader,
  verify,
  verifyV1a,
} from '../../../functions/domain/webhooks/signature.ts';

// The Standard Webhooks reference libraries' own example (secret, id, timestamp, payload -> signature).
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TIMESTAMP = 1614265330;
const PAYLOAD = '{"test": 2432232314}';
const V1A_VECTOR = 'v1a,fldxM4gAKugP6nnt1hdz3sgGfZ6d99nzrMFnZOELIxbzEHoVmAb2ADpkJK7zgPePmPsle0zV9jSeGlHFG2NVAw==';

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

// The Standard Webhooks reference libraries publish no v1a vectors, so these are known answers derived from RFC 8032
// §7.1 (Ed25519 is deterministic): its TEST 1 and TEST 2 keys, encoded as `whsk_`/`whpk_` (base64 of the 32 raw bytes).
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
const RFC = [
  {
    seed: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    pub: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    message: '',
    sig: 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    seed: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    pub: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    message: '72',
    sig: '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
];
// RFC 8032 TEST 1's key signing the Standard Webhooks example message (pinned; Python's cryptography gives the same).
const V1A_KEY = `whsk_${b64(RFC[0].seed)}`;
const V1A_PUBLIC = `whpk_${b64(RFC[0].pub)}`;

describe('v1a signatures (Standard Webhooks 1.0, Ed25519)', () => {
  it.each(RFC)('derives the RFC 8032 public key and signature from its seed ($pub)', ({ seed, pub, message, sig }) => {
    const secret = `whsk_${b64(seed)}`;
    expect(publicKeyOf(secret)).toBe(`whpk_${b64(pub)}`);
    // The RFC's raw message (no id.timestamp.body framing), with the same PKCS #8 wrapping of the seed as sign().
    const signed = edSign(null, Buffer.from(message, 'hex'), {
      key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(seed, 'hex')]),
      format: 'der',
      type: 'pkcs8',
    });
    expect(signed.toString('hex')).toBe(sig);
  });

  it('signs id.timestamp.body with the whsk_ key as v1a,<base64>, verifiable by its whpk_ key only', () => {
    const header = sign(V1A_KEY, ID, TIMESTAMP, PAYLOAD);
    expect(header).toBe(V1A_VECTOR);
    expect(verifyV1a(V1A_PUBLIC, ID, TIMESTAMP, PAYLOAD, header)).toBe(true);
    expect(verifyV1a(V1A_PUBLIC, ID, TIMESTAMP + 1, PAYLOAD, header)).toBe(false);
    expect(verifyV1a(newSigningKey().publicKey, ID, TIMESTAMP, PAYLOAD, header)).toBe(false);
    // v1 is unchanged beside it: the prefix of the stored secret chooses the scheme.
    const both = signatureHeader([V1A_KEY, SECRET], ID, TIMESTAMP, PAYLOAD);
    expect(verify(SECRET, ID, TIMESTAMP, PAYLOAD, both)).toBe(true);
    expect(verifyV1a(V1A_PUBLIC, ID, TIMESTAMP, PAYLOAD, both)).toBe(true);
  });

  it('makes key pairs of a 32-byte seed behind whsk_ and a 32-byte public key behind whpk_', () => {
    const { secret, publicKey } = newSigningKey();
    expect(Buffer.from(secret.slice(5), 'base64')).toHaveLength(32);
    expect(Buffer.from(publicKey.slice(5), 'base64')).toHaveLength(32);
    expect(publicKeyOf(secret)).toBe(publicKey);
    expect(newSigningKey().secret).not.toBe(secret);
  });
});
