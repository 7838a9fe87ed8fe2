import { secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.ts';
import { Secret } from '../../../src/core/secret.ts';
import { privateKeyToAddress } from '../../../src/venue/signing/address.ts';
import { decodeClientOrderId, encodeClientOrderId } from '../../../src/venue/signing/client-order-id.ts';
import { signDigest } from '../../../src/venue/signing/ecdsa.ts';
import { DEFAULT_EXCHANGE_ADDRESSES } from '../../../src/venue/signing/eip712.ts';
import type { OrderParams } from '../../../src/venue/signing/order-builder.ts';
import { OrderBuildError } from '../../../src/venue/signing/order-build-error.ts';
import { createOrderSigner, toOrderSubmission } from '../../../src/venue/signing/order-signer.ts';
import { recoverOrderSigner } from '../../../src/venue/signing/recover.ts';

const KEY = '0x' + '11'.repeat(32);
const ADDRESS = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
const FUNDER = '0x1234567890AbcdEF1234567890aBcdef12345678';
const CONDITION = '0x' + 'cd'.repeat(32);
const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';

const base: OrderParams = {
  tokenId: TOKEN,
  conditionId: CONDITION,
  price: 520_000,
  size: 100_000_000,
  side: 'BUY',
  tick: 10_000,
  negRisk: false,
  orderType: 'GTC',
  salt: 42,
  timestamp: 1_700_000_000_000,
};

const account = { privateKey: new Secret(KEY), signerAddress: ADDRESS, signatureType: 0 as const };

describe('order JSON per profile', () => {
  it('interface: string salt, conditionId sent, no expiration unless GTD', () => {
    const s = createOrderSigner(account, { profile: 'interface' }).sign({ ...base, clientOrderId: 'q-1' });
    expect(s.order.salt).toBe('42');
    expect(s.order.conditionId).toBe(CONDITION);
    expect('expiration' in s.order).toBe(false);
    expect(s.order.metadata).toBe(encodeClientOrderId('q-1'));
    expect(s.order.signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(s.orderHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Object.keys(s.order)).toEqual([
      'salt', 'maker', 'signer', 'tokenId', 'conditionId', 'makerAmount', 'takerAmount', 'side',
      'signatureType', 'timestamp', 'metadata', 'builder', 'signature',
    ]);
    const gtd = createOrderSigner(account, { profile: 'interface' }).sign({ ...base, orderType: 'GTD', expiration: 1_700_000_600 });
    expect(gtd.order.expiration).toBe('1700000600');
  });

  it('polymarket: number salt, no conditionId, expiration always', () => {
    const s = createOrderSigner(account, { profile: 'polymarket' }).sign({ ...base, conditionId: undefined });
    expect(s.order.salt).toBe(42);
    expect('conditionId' in s.order).toBe(false);
    expect(s.order.expiration).toBe('0');
  });

  it('the conditionId and profile do not change the signed hash', () => {
    const a = createOrderSigner(account, { profile: 'interface' }).sign(base);
    const b = createOrderSigner(account, { profile: 'polymarket' }).sign(base);
    expect(a.orderHash).toBe(b.orderHash);
    expect(a.order.signature).toBe(b.order.signature);
  });

  it('neg-risk orders are signed for the neg-risk exchange', () => {
    const signer = createOrderSigner(account, { profile: 'interface' });
    const std = signer.sign(base);
    const neg = signer.sign({ ...base, negRisk: true });
    expect(neg.orderHash).not.toBe(std.orderHash);
    expect(recoverOrderSigner(neg.order, DEFAULT_EXCHANGE_ADDRESSES.negRisk).orderHash).toBe(neg.orderHash);
    expect(recoverOrderSigner(neg.order, DEFAULT_EXCHANGE_ADDRESSES.negRisk).recovered).toBe(ADDRESS);
    expect(recoverOrderSigner(neg.order, DEFAULT_EXCHANGE_ADDRESSES.standard).recovered).not.toBe(ADDRESS);
  });

  it('configured exchanges and chain id change the domain', () => {
    const other = '0x' + '42'.repeat(20);
    const s = createOrderSigner(account, { profile: 'interface', exchanges: { standard: other, negRisk: other }, chainId: 80002 }).sign(base);
    expect(recoverOrderSigner(s.order, other, 80002).recovered).toBe(ADDRESS);
    expect(recoverOrderSigner(s.order, other, 137).recovered).not.toBe(ADDRESS);
  });

  it('proxy and safe accounts: maker is the funder, signer the key', () => {
    for (const signatureType of [1, 2] as const) {
      const s = createOrderSigner({ ...account, maker: FUNDER.toLowerCase(), signatureType }, { profile: 'interface' }).sign(base);
      expect(s.order.maker).toBe(FUNDER);
      expect(s.order.signer).toBe(ADDRESS);
      expect(s.order.signatureType).toBe(signatureType);
      expect(recoverOrderSigner(s.order, DEFAULT_EXCHANGE_ADDRESSES.standard).recovered).toBe(ADDRESS);
    }
  });

  it('submission item carries owner and postOnly only when set', () => {
    const signer = createOrderSigner(account, { profile: 'interface' });
    const plain = signer.sign(base);
    expect(toOrderSubmission(plain, 'api-key')).toEqual({ order: plain.order, orderType: 'GTC', owner: 'api-key' });
    const po = signer.sign({ ...base, postOnly: true });
    expect(toOrderSubmission(po, 'api-key')).toEqual({ order: po.order, orderType: 'GTC', owner: 'api-key', postOnly: true });
  });
});

describe('refusals before signing', () => {
  const signer = createOrderSigner(account, { profile: 'interface' });
  const cases: [string, Partial<OrderParams>, string][] = [
    ['off-tick price', { price: 523_000 }, 'price'],
    ['price at 0', { price: 0 }, 'price'],
    ['price at 1', { price: 1_000_000 }, 'price'],
    ['postOnly with FOK', { postOnly: true, orderType: 'FOK' }, 'postOnly'],
    ['GTD without expiration', { orderType: 'GTD' }, 'expiration'],
    ['expiration on GTC', { expiration: 5 }, 'expiration'],
    ['hex token id', { tokenId: '0xabc' }, 'tokenId'],
    ['no conditionId in interface profile', { conditionId: undefined }, 'conditionId'],
    ['bad conditionId', { conditionId: '0x12' }, 'conditionId'],
    ['fractional salt', { salt: 1.5 }, 'salt'],
    ['client id too long', { clientOrderId: 'x'.repeat(33) }, 'clientOrderId'],
    ['unknown order type', { orderType: 'IOC' as 'GTC' }, 'orderType'],
  ];
  for (const [name, patch, param] of cases) {
    it(name, () => {
      let caught: unknown;
      try {
        signer.sign({ ...base, ...patch });
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(OrderBuildError);
      expect((caught as OrderBuildError).param).toBe(param);
    });
  }

  it('refuses a signer address that is not the key', () => {
    expect(() => createOrderSigner({ ...account, signerAddress: FUNDER }, { profile: 'interface' })).toThrow(ConfigError);
  });

  it('refuses an EOA account whose maker is another address', () => {
    expect(() => createOrderSigner({ ...account, maker: FUNDER }, { profile: 'interface' })).toThrow(ConfigError);
  });
});

describe('client order id in metadata', () => {
  it('round-trips any id of 1..32 UTF-8 bytes without NUL', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 32 }), (id) => {
        const bytes = Buffer.byteLength(id, 'utf8');
        fc.pre(bytes <= 32 && !id.includes('\u0000'));
        const meta = encodeClientOrderId(id);
        expect(meta).toMatch(/^0x[0-9a-f]{64}$/);
        expect(decodeClientOrderId(meta)).toBe(id);
      }),
    );
  });

  it('zero metadata means no id; foreign metadata decodes to undefined', () => {
    expect(encodeClientOrderId(undefined)).toBe('0x' + '00'.repeat(32));
    expect(decodeClientOrderId('0x' + '00'.repeat(32))).toBeUndefined();
    expect(decodeClientOrderId('0x' + 'ff'.repeat(32))).toBeUndefined(); // invalid UTF-8
    expect(decodeClientOrderId('0x41004100' + '00'.repeat(28))).toBeUndefined(); // NUL inside
    expect(decodeClientOrderId('0x1234')).toBeUndefined();
  });
});

describe('ECDSA agrees with @noble/curves', () => {
  it('gives byte-identical RFC 6979 signatures for random keys and digests', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (key, digest) => {
        fc.pre(secp256k1.utils.isValidSecretKey(key));
        const ours = signDigest(digest, key);
        const noble = secp256k1.sign(digest, key, { prehash: false, format: 'recovered' }); // recovery ‖ r ‖ s
        expect(Buffer.from(ours.subarray(0, 64)).equals(Buffer.from(noble.subarray(1)))).toBe(true);
        expect(ours[64]).toBe(27 + (noble[0] as number));
      }),
      { numRuns: 200 },
    );
  });
});

describe('recovery round-trips', () => {
  const keyArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => secp256k1.utils.isValidSecretKey(k));
  const paramsArb = fc.record({
    tick: fc.constantFrom(100_000, 10_000, 5_000, 1_000, 2_500, 100),
    k: fc.integer({ min: 1, max: 9999 }),
    size: fc.integer({ min: 10_000, max: 1_000_000_000_000 }),
    side: fc.constantFrom('BUY' as const, 'SELL' as const),
    negRisk: fc.boolean(),
    salt: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    token: fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
    profile: fc.constantFrom('interface' as const, 'polymarket' as const),
  });

  it('recovers the signer and the order hash from the wire order', () => {
    fc.assert(
      fc.property(keyArb, paramsArb, (key, p) => {
        const privateKey = new Secret('0x' + Buffer.from(key).toString('hex'));
        const address = privateKeyToAddress(key);
        const signer = createOrderSigner({ privateKey, signerAddress: address, signatureType: 0 }, { profile: p.profile });
        const price = ((p.k % (1_000_000 / p.tick - 1)) + 1) * p.tick;
        const signed = signer.sign({ ...base, tokenId: p.token.toString(), price, size: p.size, side: p.side, tick: p.tick, negRisk: p.negRisk, salt: p.salt });
        const contract = p.negRisk ? DEFAULT_EXCHANGE_ADDRESSES.negRisk : DEFAULT_EXCHANGE_ADDRESSES.standard;
        // through JSON, as the sandbox receives it
        const wire = JSON.parse(JSON.stringify(signed.order)) as typeof signed.order;
        const r = recoverOrderSigner(wire, contract);
        expect(r.orderHash).toBe(signed.orderHash);
        expect(r.recovered).toBe(address);
        // any change to a signed field changes who recovers
        const tampered = { ...wire, makerAmount: String(BigInt(wire.makerAmount) + 1n) };
        expect(recoverOrderSigner(tampered, contract).recovered).not.toBe(address);
      }),
      { numRuns: 60 },
    );
  });
});
