import { secp256k1 } from '@noble/curves/secp256k1.js';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Secret } from '../../../src/core/secret.ts';
import {
  isAddress,
  isChecksumAddress,
  privateKeyToAddress,
  publicKeyToAddress,
  toChecksumAddress,
} from '../../../src/venue/signing/address.ts';
import { buildL1Headers } from '../../../src/venue/signing/clob-auth.ts';
import { signDigest } from '../../../src/venue/signing/ecdsa.ts';
import { createL2Mac, createL2Signer, decodeApiSecret, verifyL2Signature } from '../../../src/venue/signing/l2-auth.ts';
import { recoverAddress, recoverClobAuthSigner } from '../../../src/venue/signing/recover.ts';
import { toHex } from '../../../src/venue/signing/hex.ts';

const N = secp256k1.Point.Fn.ORDER;

describe('addresses', () => {
  // EIP-55's own examples
  const eip55 = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it('checksums the EIP-55 examples', () => {
    for (const a of eip55) {
      expect(toChecksumAddress(a.toLowerCase())).toBe(a);
      expect(toChecksumAddress(a.toUpperCase().replace('0X', '0x'))).toBe(a);
      expect(isChecksumAddress(a)).toBe(true);
      expect(isAddress(a)).toBe(true);
    }
  });

  it('refuses a wrong mixed-case checksum and malformed text', () => {
    const bad = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';
    expect(isChecksumAddress(bad)).toBe(false);
    expect(isAddress(bad)).toBe(false);
    expect(isAddress(bad.toLowerCase())).toBe(true);
    expect(isAddress('0x1234')).toBe(false);
    expect(isAddress('5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
    expect(() => toChecksumAddress('0xzz')).toThrow(RangeError);
  });

  it('derives the address of a key like noble does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (key) => {
        fc.pre(secp256k1.utils.isValidSecretKey(key));
        const address = privateKeyToAddress(key);
        expect(address).toBe(publicKeyToAddress(secp256k1.getPublicKey(key, false)));
        expect(isChecksumAddress(address)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });
});

describe('recoverAddress', () => {
  const key = new Uint8Array(32).fill(0x33);
  const address = privateKeyToAddress(key);
  const digest = new Uint8Array(32).fill(0x44);
  const sig = signDigest(digest, key);

  it('recovers the signer', () => {
    expect(recoverAddress(digest, toHex(sig))).toBe(address);
    expect(recoverAddress(digest, toHex(sig).toUpperCase().replace('0X', '0x'))).toBe(address);
  });

  it('refuses a high-s (malleable) twin of a valid signature', () => {
    const s = BigInt(toHex(sig.subarray(32, 64)));
    const twin = new Uint8Array(sig);
    twin.set(Buffer.from((N - s).toString(16).padStart(64, '0'), 'hex'), 32);
    twin[64] = sig[64] === 27 ? 28 : 27;
    expect(recoverAddress(digest, toHex(twin))).toBeUndefined();
  });

  it('refuses v other than 27/28, wrong lengths, zero r', () => {
    const v0 = new Uint8Array(sig);
    v0[64] = 0;
    expect(recoverAddress(digest, toHex(v0))).toBeUndefined();
    expect(recoverAddress(digest, toHex(sig.subarray(0, 64)))).toBeUndefined();
    expect(recoverAddress(digest, 'garbage')).toBeUndefined();
    const zeroR = new Uint8Array(sig);
    zeroR.fill(0, 0, 32);
    expect(recoverAddress(digest, toHex(zeroR))).toBeUndefined();
  });
});

describe('L1 ClobAuth round-trip', () => {
  it('the L1 headers recover to the address, and only with the same fields', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.constantFrom('interface' as const, 'polymarket' as const),
        (key, ts, nonce, profile) => {
          fc.pre(secp256k1.utils.isValidSecretKey(key));
          const address = privateKeyToAddress(key);
          const h = buildL1Headers({ privateKey: new Secret(toHex(key)), address, timestampSec: ts, nonce, profile });
          const p = profile === 'polymarket' ? 'POLY' : 'SERVICE';
          const fields = { address: h[`${p}_ADDRESS`]!, timestamp: h[`${p}_TIMESTAMP`]!, nonce: h[`${p}_NONCE`]!, signature: h[`${p}_SIGNATURE`]! };
          expect(recoverClobAuthSigner(fields)).toBe(address);
          expect(recoverClobAuthSigner({ ...fields, nonce: String(nonce + 1) })).not.toBe(address);
          expect(recoverClobAuthSigner({ ...fields, timestamp: String(ts + 1) })).not.toBe(address);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('refuses to sign for an address that is not the key', () => {
    expect(() =>
      buildL1Headers({ privateKey: new Secret('0x' + '11'.repeat(32)), address: '0x' + '12'.repeat(20), timestampSec: 1, profile: 'interface' }),
    ).toThrow(/not the address of the private key/);
  });
});

describe('L2 HMAC headers and verifier', () => {
  const secret = Buffer.alloc(32, 7).toString('base64url') + '=';
  const creds = { apiKey: '00000000-0000-0000-0000-000000000001', secret: new Secret(secret), passphrase: new Secret('a'.repeat(64)) };
  const address = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';

  it('builds the five headers with the profile prefix', () => {
    const h = createL2Signer(address, creds, 'interface').headers('POST', '/orders', '[]', 1_700_000_000);
    expect(Object.keys(h).sort()).toEqual(['SERVICE_ADDRESS', 'SERVICE_API_KEY', 'SERVICE_PASSPHRASE', 'SERVICE_SIGNATURE', 'SERVICE_TIMESTAMP']);
    expect(h['SERVICE_PASSPHRASE']).toBe('a'.repeat(64));
    expect(h['SERVICE_TIMESTAMP']).toBe('1700000000');
    expect(h['SERVICE_SIGNATURE']).toMatch(/^[0-9a-f]{64}$/);
    const p = createL2Signer(address, creds, 'polymarket').headers('POST', '/orders', '[]', 1_700_000_000);
    expect(p['POLY_SIGNATURE']).toMatch(/^[A-Za-z0-9_-]{43}=$/);
    expect(Buffer.from(p['POLY_SIGNATURE']!, 'base64url').toString('hex')).toBe(h['SERVICE_SIGNATURE']);
  });

  it('the MAC from precomputed pad states is createHmac, for any key length, and stays so when reused', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 200 }),
        fc.array(fc.tuple(fc.string({ maxLength: 40 }), fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 300 }))), { minLength: 1, maxLength: 4 }),
        (key, messages) => {
          const mac = createL2Mac(key);
          for (const [head, body] of messages) {
            const expected = createHmac('sha256', key).update(head + body).digest('hex');
            expect(mac(head, body).toString('hex')).toBe(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
    // block-length edges: a key of exactly 64 bytes is padded, one of 65 is hashed first
    for (const length of [63, 64, 65, 128]) {
      const key = Buffer.alloc(length, 0xa5);
      const body = '[' + 'x'.repeat(20_000) + ']';
      expect(createL2Mac(key)('1700000000POST/orders', body).equals(createHmac('sha256', key).update('1700000000POST/orders' + body).digest())).toBe(true);
    }
  });

  it('the verifier accepts what the signer made and refuses any change', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('GET', 'POST', 'DELETE'),
        fc.string({ minLength: 1, maxLength: 30 }).map((s) => '/' + s.replace(/[?#]/g, '')),
        fc.option(fc.string({ maxLength: 200 }), { nil: undefined }),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.constantFrom('interface' as const, 'polymarket' as const),
        (method, path, body, ts, profile) => {
          const h = createL2Signer(address, creds, profile).headers(method, path, body, ts);
          const p = profile === 'polymarket' ? 'POLY' : 'SERVICE';
          const signature = h[`${p}_SIGNATURE`]!;
          const ok = { secret, timestamp: String(ts), method, path, body, signature, profile };
          expect(verifyL2Signature(ok)).toBe(true);
          expect(verifyL2Signature({ ...ok, body: (body ?? '') + ' ' })).toBe(false);
          expect(verifyL2Signature({ ...ok, timestamp: String(ts + 1) })).toBe(false);
          expect(verifyL2Signature({ ...ok, path: path + 'x' })).toBe(false);
          expect(verifyL2Signature({ ...ok, secret: Buffer.alloc(32, 8).toString('base64url') })).toBe(false);
          expect(verifyL2Signature({ ...ok, profile: profile === 'interface' ? 'polymarket' : 'interface' })).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('the verifier tolerates base64url without padding and refuses junk', () => {
    const h = createL2Signer(address, creds, 'polymarket').headers('GET', '/data/orders', undefined, 5);
    const sig = h['POLY_SIGNATURE']!;
    const base = { secret, timestamp: '5', method: 'GET', path: '/data/orders', body: undefined, profile: 'polymarket' as const };
    expect(verifyL2Signature({ ...base, signature: sig.replace(/=+$/, '') })).toBe(true);
    expect(verifyL2Signature({ ...base, signature: '' })).toBe(false);
    expect(verifyL2Signature({ ...base, signature: '!!!' })).toBe(false);
    expect(verifyL2Signature({ ...base, signature: sig, secret: '' })).toBe(false);
    expect(verifyL2Signature({ ...base, signature: sig, secret: new Secret(secret) })).toBe(true);
  });

  it('decodes base64url and standard base64 secrets to the same key', () => {
    const raw = Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 37 + 250) & 0xff));
    expect(decodeApiSecret(raw.toString('base64url')).equals(raw)).toBe(true);
    expect(decodeApiSecret(raw.toString('base64')).equals(raw)).toBe(true);
    expect(() => decodeApiSecret('not base64!')).toThrow(/api secret/);
  });
});
