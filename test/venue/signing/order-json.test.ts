import { keccak_256 } from '@noble/hashes/sha3.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Secret } from '../../../src/core/secret.ts';
import type { OrderType } from '../../../src/core/types.ts';
import { encodeClientOrderId } from '../../../src/venue/signing/client-order-id.ts';
import { Eip712EncodeError, hashOrderStruct, ORDER_TYPE_HASH, type OrderStruct } from '../../../src/venue/signing/eip712.ts';
import { submissionJson, wireOrderJson } from '../../../src/venue/signing/order-json.ts';
import { createOrderSigner, toOrderSubmission, type SignedOrder } from '../../../src/venue/signing/order-signer.ts';
import type { VenueProfile } from '../../../src/venue/signing/profile.ts';

/**
 * The hand-written parts of the order path against their references: the submission JSON
 * against JSON.stringify, the ASCII client-order-id encoding against Buffer's, the order struct
 * hash (which keeps the account's words between calls) against a plain encoding hashed by
 * @noble/hashes.
 */

const KEY = '0x' + '11'.repeat(32);
const ADDRESS = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
const FUNDER = '0x1234567890AbcdEF1234567890aBcdef12345678';
const CONDITION = '0x' + 'cd'.repeat(32);
const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';

function signedOrders(profile: VenueProfile): SignedOrder[] {
  const signer = createOrderSigner({ privateKey: new Secret(KEY), signerAddress: ADDRESS, signatureType: 1, maker: FUNDER }, { profile, builder: '0x' + '7a'.repeat(32) });
  const base = { tokenId: TOKEN, conditionId: CONDITION, price: 520_000, size: 100_000_000, tick: 10_000, negRisk: false, salt: 42, timestamp: 1_700_000_000_000 };
  const kinds: { orderType: OrderType; postOnly?: boolean; expiration?: number }[] = [
    { orderType: 'GTC' },
    { orderType: 'GTC', postOnly: true },
    { orderType: 'GTD', expiration: 1_700_000_600 },
    { orderType: 'GTD', expiration: 1_700_000_600, postOnly: true },
    { orderType: 'FAK' },
    { orderType: 'FOK' },
  ];
  const out: SignedOrder[] = [];
  kinds.forEach((kind, i) => {
    for (const side of ['BUY', 'SELL'] as const) {
      const ids = [undefined, `q-${i}`, 'é-ü'];
      for (const clientOrderId of ids) out.push(signer.sign({ ...base, ...kind, side, clientOrderId, salt: base.salt + i, tokenId: i % 2 === 0 ? TOKEN : '7' }));
    }
  });
  return out;
}

describe('submission JSON', () => {
  for (const profile of ['interface', 'polymarket'] as const) {
    it(`is JSON.stringify's text for every kind of signed order (${profile})`, () => {
      for (const signed of signedOrders(profile)) {
        for (const deferExec of [undefined, true, false]) {
          const reference = toOrderSubmission(signed, 'api-"key"');
          if (deferExec !== undefined) reference.deferExec = deferExec;
          expect(submissionJson(signed, JSON.stringify('api-"key"'), deferExec)).toBe(JSON.stringify(reference));
        }
        expect(wireOrderJson(signed.order)).toBe(JSON.stringify(signed.order));
      }
    });
  }

  it('writes any order the signer did not make with JSON.stringify (escaping what needs it)', () => {
    const [signed] = signedOrders('interface') as [SignedOrder];
    const copy = { ...signed.order, metadata: 'a "quoted"\n value' };
    expect(wireOrderJson(copy)).toBe(JSON.stringify(copy));
    expect(JSON.parse(submissionJson({ ...signed, order: copy }, '"k"')).order.metadata).toBe('a "quoted"\n value');
  });

  it('keeps the signer\'s orders frozen, so their checked text cannot change after signing', () => {
    const [signed] = signedOrders('polymarket') as [SignedOrder];
    expect(Object.isFrozen(signed.order)).toBe(true);
    expect(Object.isFrozen(toWireOrderCopy(signed))).toBe(false);
  });
});

/** toWireOrder gives a plain object: writable, so it is written by JSON.stringify. */
function toWireOrderCopy(signed: SignedOrder): object {
  const copy = { ...signed.order };
  expect(wireOrderJson(copy)).toBe(JSON.stringify(signed.order));
  return copy;
}

describe('client order id, ASCII fast path', () => {
  it('gives the bytes of the general UTF-8 encoding', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 32 }), (id) => {
        fc.pre(!id.includes('\u0000'));
        expect(encodeClientOrderId(id)).toBe('0x' + Buffer.from(id, 'utf8').toString('hex').padEnd(64, '0'));
      }),
      { numRuns: 500 },
    );
  });
});

const word = (hex: string): Buffer => Buffer.from(hex.replace(/^0x/, '').padStart(64, '0'), 'hex');
const uint = (n: number | bigint): Buffer => word(n.toString(16));

/** hashStruct(Order) written out word by word, hashed by @noble/hashes. */
function referenceStructHash(o: OrderStruct): string {
  const words = [Buffer.from(ORDER_TYPE_HASH), uint(o.salt), word(o.maker), word(o.signer), uint(o.tokenId), uint(o.makerAmount), uint(o.takerAmount), uint(o.side), uint(o.signatureType), uint(o.timestamp), word(o.metadata), word(o.builder)];
  return Buffer.from(keccak_256(Buffer.concat(words))).toString('hex');
}

describe('order struct hash', () => {
  const hex = (n: number): fc.Arbitrary<string> => fc.uint8Array({ minLength: n, maxLength: n }).map((b) => '0x' + Buffer.from(b).toString('hex'));
  // few accounts and tokens, so consecutive structs share some of the kept words and differ in others
  const accounts = fc.constantFrom(
    { maker: ADDRESS, signer: ADDRESS, builder: '0x' + '00'.repeat(32) },
    { maker: FUNDER, signer: ADDRESS, builder: '0x' + '7a'.repeat(32) },
    { maker: FUNDER, signer: FUNDER, builder: '0x' + '00'.repeat(32) },
  );
  const amount = fc.oneof(fc.nat({ max: Number.MAX_SAFE_INTEGER }), fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }));
  const struct: fc.Arbitrary<OrderStruct> = fc.record({
    account: accounts,
    salt: amount,
    tokenId: fc.oneof(fc.constantFrom(5n, (1n << 255n) + 3n), fc.bigInt({ min: 0n, max: (1n << 256n) - 1n })),
    makerAmount: amount,
    takerAmount: amount,
    side: fc.constantFrom(0 as const, 1 as const),
    signatureType: fc.integer({ min: 0, max: 255 }),
    timestamp: amount,
    metadata: hex(32),
  }).map(({ account, ...rest }) => ({ ...rest, ...account }));

  it('equals the word-by-word encoding hashed by @noble/hashes, call after call', () => {
    fc.assert(
      fc.property(fc.array(struct, { minLength: 1, maxLength: 8 }), (structs) => {
        for (const s of structs) expect(Buffer.from(hashOrderStruct(s)).toString('hex')).toBe(referenceStructHash(s));
      }),
      { numRuns: 300 },
    );
  });

  it('a refused struct leaves no word behind for the next one', () => {
    const good: OrderStruct = { salt: 1, maker: FUNDER, signer: ADDRESS, tokenId: 5n, makerAmount: 2n ** 200n, takerAmount: 3, side: 1, signatureType: 2, timestamp: 9, metadata: '0x' + '01'.repeat(32), builder: '0x' + '7a'.repeat(32) };
    expect(Buffer.from(hashOrderStruct(good)).toString('hex')).toBe(referenceStructHash(good));
    expect(() => hashOrderStruct({ ...good, maker: '0x12' })).toThrow(Eip712EncodeError);
    expect(() => hashOrderStruct({ ...good, builder: 'zz' })).toThrow(Eip712EncodeError);
    expect(() => hashOrderStruct({ ...good, makerAmount: -1 })).toThrow(Eip712EncodeError);
    expect(() => hashOrderStruct({ ...good, tokenId: 1n << 256n })).toThrow(Eip712EncodeError);
    expect(Buffer.from(hashOrderStruct(good)).toString('hex')).toBe(referenceStructHash(good));
  });
});
