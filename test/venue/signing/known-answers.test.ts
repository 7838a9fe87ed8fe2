import { describe, expect, it } from 'vitest';
import { parseMicros } from '../../../src/core/fixed.ts';
import { Secret } from '../../../src/core/secret.ts';
import { privateKeyToAddress } from '../../../src/venue/signing/address.ts';
import { buildL1Headers, signClobAuth } from '../../../src/venue/signing/clob-auth.ts';
import {
  CLOB_AUTH_MESSAGE,
  CLOB_AUTH_TYPE_STRING,
  DEFAULT_EXCHANGE_ADDRESSES,
  domainSeparator,
  ORDER_TYPE_STRING,
} from '../../../src/venue/signing/eip712.ts';
import { createL2Signer, l2Signature, l2SigningString, decodeApiSecret } from '../../../src/venue/signing/l2-auth.ts';
import { computeOrderAmounts } from '../../../src/venue/signing/order-amounts.ts';
import { createOrderSigner, signOrderStruct } from '../../../src/venue/signing/order-signer.ts';
import { privateKeyBytes } from '../../../src/venue/signing/private-key.ts';
import { loadVectors } from './vectors.ts';

const V = loadVectors();

function micros(text: string): number {
  const m = parseMicros(text);
  if (Number.isNaN(m)) throw new Error(`bad decimal in vectors: ${text}`);
  return m;
}

describe('order amounts', () => {
  for (const v of V.order_amounts) {
    it(`${v.side} ${v.size} at ${v.price} (tick ${v.tick})`, () => {
      const a = computeOrderAmounts(v.side, micros(v.price), micros(v.size), micros(v.tick));
      expect(String(a.makerAmount)).toBe(v.makerAmount);
      expect(String(a.takerAmount)).toBe(v.takerAmount);
    });
  }
});

describe('L2 HMAC', () => {
  const h = V.l2_hmac;
  const key = decodeApiSecret(h.secret_base64url);

  it('builds the signing string', () => {
    expect(l2SigningString(h.timestamp, h.method, h.path, h.body)).toBe(h.signing_string);
  });

  it('matches the hex signature', () => {
    expect(l2Signature(key, h.timestamp, h.method, h.path, h.body, 'hex')).toBe(h.signature_hex);
  });

  it('matches the base64url signature, padding kept', () => {
    expect(l2Signature(key, h.timestamp, h.method, h.path, h.body, 'base64url')).toBe(h.signature_base64url);
  });

  it('accepts the secret in standard base64 too', () => {
    const standard = Buffer.from(key).toString('base64');
    const k2 = decodeApiSecret(standard);
    expect(l2Signature(k2, h.timestamp, h.method, h.path, h.body, 'hex')).toBe(h.signature_hex);
  });

  it('puts the vector signature in the right header per profile', () => {
    const creds = { apiKey: 'k', secret: new Secret(h.secret_base64url), passphrase: new Secret('p'.repeat(64)) };
    const ts = Number(h.timestamp);
    const iface = createL2Signer('0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A', creds, 'interface');
    expect(iface.headers(h.method, h.path, h.body, ts)['SERVICE_SIGNATURE']).toBe(h.signature_hex);
    const poly = createL2Signer('0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A', creds, 'polymarket');
    expect(poly.headers(h.method, h.path, h.body, ts)['POLY_SIGNATURE']).toBe(h.signature_base64url);
  });
});

describe('EIP-712 order', () => {
  const o = V.order_eip712_v2;
  const key = privateKeyBytes(new Secret(o.privateKey));

  it('uses the vector type string and exchange address', () => {
    expect(ORDER_TYPE_STRING).toBe(o.type_string);
    expect(DEFAULT_EXCHANGE_ADDRESSES.standard).toBe(o.domain.verifyingContract);
  });

  it('derives the vector address from the key', () => {
    expect(privateKeyToAddress(key)).toBe(o.address);
  });

  it('hashes and signs the vector message byte for byte', () => {
    const m = o.message;
    const { orderHash, signature } = signOrderStruct(
      {
        salt: BigInt(m.salt),
        maker: m.maker,
        signer: m.signer,
        tokenId: BigInt(m.tokenId),
        makerAmount: BigInt(m.makerAmount),
        takerAmount: BigInt(m.takerAmount),
        side: m.side,
        signatureType: m.signatureType,
        timestamp: BigInt(m.timestamp),
        metadata: m.metadata,
        builder: m.builder,
      },
      domainSeparator(o.domain),
      key,
    );
    expect(orderHash).toBe(o.orderHash);
    expect(signature).toBe(o.signature);
  });

  it('builds the same order from price, size and tick through the signer', () => {
    const signer = createOrderSigner(
      { privateKey: new Secret(o.privateKey), signerAddress: o.address, signatureType: 0 },
      { profile: 'polymarket' },
    );
    const signed = signer.sign({
      tokenId: o.message.tokenId,
      price: micros('0.52'),
      size: micros('100'),
      side: 'BUY',
      tick: micros('0.01'),
      negRisk: false,
      orderType: 'GTC',
      salt: Number(o.message.salt),
      timestamp: Number(o.message.timestamp),
    });
    expect(signed.orderHash).toBe(o.orderHash);
    expect(signed.order).toEqual({
      salt: 123456789,
      maker: o.address,
      signer: o.address,
      tokenId: o.message.tokenId,
      makerAmount: o.message.makerAmount,
      takerAmount: o.message.takerAmount,
      side: 'BUY',
      signatureType: 0,
      timestamp: o.message.timestamp,
      expiration: '0',
      metadata: o.message.metadata,
      builder: o.message.builder,
      signature: o.signature,
    });
  });
});

describe('L1 ClobAuth', () => {
  const c = V.l1_clob_auth;

  it('uses the vector type string and message', () => {
    expect(CLOB_AUTH_TYPE_STRING).toBe(c.type_string);
    expect(CLOB_AUTH_MESSAGE).toBe(c.message_text);
  });

  it('signs the vector message byte for byte', () => {
    const key = privateKeyBytes(new Secret(c.privateKey));
    expect(signClobAuth(key, c.address, c.timestamp, BigInt(c.nonce), c.domain.chainId)).toBe(c.signature);
  });

  it('builds the L1 headers for each profile', () => {
    const base = { privateKey: new Secret(c.privateKey), address: c.address, timestampSec: Number(c.timestamp), nonce: Number(c.nonce) };
    expect(buildL1Headers({ ...base, profile: 'interface' })).toEqual({
      SERVICE_ADDRESS: c.address,
      SERVICE_SIGNATURE: c.signature,
      SERVICE_TIMESTAMP: c.timestamp,
      SERVICE_NONCE: c.nonce,
    });
    expect(buildL1Headers({ ...base, profile: 'polymarket' })).toEqual({
      POLY_ADDRESS: c.address,
      POLY_SIGNATURE: c.signature,
      POLY_TIMESTAMP: c.timestamp,
      POLY_NONCE: c.nonce,
    });
  });
});
