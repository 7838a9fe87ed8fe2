import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as sdk from '@polymarket/clob-client-v2';
import { createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { polygon } from 'viem/chains';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.ts';
import { Secret } from '../../../src/core/secret.ts';
import { privateKeyToAddress } from '../../../src/venue/signing/address.ts';
import { encodeClientOrderId } from '../../../src/venue/signing/client-order-id.ts';
import {
  depositWalletDigest,
  TYPED_DATA_SIGN_TYPE_STRING,
  unwrapDepositWalletSignature,
  WRAPPED_SIGNATURE_LENGTH,
} from '../../../src/venue/signing/deposit-wallet.ts';
import { signingBackend } from '../../../src/venue/signing/ecdsa.ts';
import { DEFAULT_EXCHANGE_ADDRESSES, domainSeparator, hashOrderStruct, orderDomain } from '../../../src/venue/signing/eip712.ts';
import type { OrderParams } from '../../../src/venue/signing/order-builder.ts';
import { createOrderSigner } from '../../../src/venue/signing/order-signer.ts';
import { orderStructFromWire, recoverAddress } from '../../../src/venue/signing/recover.ts';
import { privateKeyBytes } from '../../../src/venue/signing/private-key.ts';

/**
 * Deposit-wallet orders (signature type 3, POLY_1271) against the official client
 * `@polymarket/clob-client-v2` 1.1.0: its `OrderBuilder` with `SignatureTypeV2.POLY_1271` and the
 * wallet as funder builds and signs each order; ours must give the same struct, order hash and
 * wrapped signature byte for byte. Runs through whichever ECDSA backend is loaded (CI sets
 * CLOBOT_NATIVE_SIGNER=1 for the addon; CLOBOT_NATIVE_SIGNER=0 for the npm package).
 */

const KEY = '0x' + '11'.repeat(32);
const OWNER = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
const WALLET = '0x5B38Da6a701c568545dCfcB03FcB875f56beddC4';
const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const TICKS = [['0.1', 100_000], ['0.01', 10_000], ['0.001', 1_000], ['0.0001', 100]] as const;

/** The official builder's order-hash function (not exported by the package root). */
async function officialOrderHash(): Promise<(contract: string, order: Record<string, unknown>) => string> {
  const root = dirname(createRequire(import.meta.url).resolve('@polymarket/clob-client-v2'));
  const mod = (await import(pathToFileURL(join(root, 'order-utils', 'exchangeOrderBuilderV2.js')).href)) as {
    ExchangeOrderBuilderV2: new (contract: string, chainId: number, signer: unknown) => {
      buildOrderTypedData(order: unknown): unknown;
      buildOrderHash(typed: unknown): string;
    };
  };
  return (contract, order) => {
    const b = new mod.ExchangeOrderBuilderV2(contract, 137, undefined);
    return b.buildOrderHash(b.buildOrderTypedData(order));
  };
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

describe('deposit-wallet (type 3) orders', () => {
  const account = { privateKey: new Secret(KEY), signerAddress: OWNER, maker: WALLET, signatureType: 3 as const };

  it(`2,000 random orders equal the official client's: struct, hash, wrapped signature (${signingBackend.name})`, async () => {
    const wallet = createWalletClient({ account: privateKeyToAccount(KEY as `0x${string}`), chain: polygon, transport: http('http://127.0.0.1:9') });
    const official = new sdk.OrderBuilder(wallet, sdk.Chain.POLYGON, sdk.SignatureTypeV2.POLY_1271, WALLET);
    const hashOf = await officialOrderHash();
    const ours = createOrderSigner(account, { profile: 'polymarket' });
    const helped = createOrderSigner(account, { profile: 'polymarket', signingHelpers: 1 });
    const rand = rng(0x2026_0326);
    const batch: OrderParams[] = [];
    const expected: { hash: string; signature: string }[] = [];
    for (let i = 0; i < 2_000; i++) {
      const [tickText, tick] = TICKS[Math.floor(rand() * TICKS.length)]!;
      const steps = Math.round(1_000_000 / tick);
      const price = tick * (1 + Math.floor(rand() * (steps - 1)));
      const size = 10_000 * (1 + Math.floor(rand() * 200_000));
      const side = rand() < 0.5 ? 'BUY' : 'SELL';
      const negRisk = rand() < 0.3;
      const clientOrderId = rand() < 0.5 ? `dw-${i}` : undefined;
      const theirs = await official.buildOrder(
        {
          tokenID: TOKEN,
          price: price / 1e6,
          size: size / 1e6,
          side: side === 'BUY' ? sdk.Side.BUY : sdk.Side.SELL,
          metadata: encodeClientOrderId(clientOrderId),
        },
        { tickSize: tickText, negRisk },
        2,
      ) as unknown as Record<string, string | number>;
      const params: OrderParams = {
        tokenId: TOKEN, price, size, side, tick, negRisk, orderType: 'GTC', clientOrderId,
        salt: Number(theirs['salt']), timestamp: Number(theirs['timestamp']),
      };
      const signed = ours.sign(params);
      const contract = negRisk ? DEFAULT_EXCHANGE_ADDRESSES.negRisk : DEFAULT_EXCHANGE_ADDRESSES.standard;
      const struct = orderStructFromWire(signed.order);
      expect({
        salt: String(struct.salt), maker: struct.maker, signer: struct.signer, tokenId: String(struct.tokenId),
        makerAmount: String(struct.makerAmount), takerAmount: String(struct.takerAmount), side: signed.order.side,
        signatureType: struct.signatureType, timestamp: String(struct.timestamp), metadata: struct.metadata, builder: struct.builder,
      }).toEqual({
        salt: String(theirs['salt']), maker: theirs['maker'], signer: theirs['signer'], tokenId: theirs['tokenId'],
        makerAmount: theirs['makerAmount'], takerAmount: theirs['takerAmount'], side,
        signatureType: theirs['signatureType'], timestamp: theirs['timestamp'], metadata: theirs['metadata'], builder: theirs['builder'],
      });
      expect(signed.orderHash).toBe(hashOf(contract, theirs));
      expect(signed.order.signature).toBe(theirs['signature']);
      batch.push(params);
      expected.push({ hash: signed.orderHash, signature: signed.order.signature });
    }
    // signMany (with a helper thread) gives the same bytes as sign
    const many = helped.signMany(batch.slice(0, 300));
    helped.close();
    many.forEach((s, k) => {
      if (s instanceof Error) throw s;
      expect({ hash: s.orderHash, signature: s.order.signature }).toEqual(expected[k]);
    });
  }, 120_000);

  it('known answer: one order, its hash, its wrapped signature, and what recovers from it', () => {
    const signed = createOrderSigner(account, { profile: 'polymarket' }).sign({
      tokenId: TOKEN, price: 520_000, size: 100_000_000, side: 'BUY', tick: 10_000, negRisk: false, orderType: 'GTC', salt: 42, timestamp: 1_700_000_000_000,
    });
    // from @polymarket/clob-client-v2 1.1.0 (ExchangeOrderBuilderV2, POLY_1271) with the same key, wallet, salt and timestamp
    expect(signed.orderHash).toBe(KNOWN.hash);
    expect(signed.order.signature).toBe(KNOWN.signature);
    expect(signed.order.maker).toBe(WALLET);
    expect(signed.order.signer).toBe(WALLET);
    expect(signed.order.signatureType).toBe(3);
    const parts = unwrapDepositWalletSignature(signed.order.signature)!;
    expect(parts).toBeDefined();
    const separator = domainSeparator(orderDomain(DEFAULT_EXCHANGE_ADDRESSES.standard));
    const contents = hashOrderStruct(orderStructFromWire(signed.order));
    expect(Buffer.from(parts.separator).equals(Buffer.from(separator))).toBe(true);
    expect(Buffer.from(parts.contentsHash).equals(Buffer.from(contents))).toBe(true);
    const inner = '0x' + Buffer.from(parts.inner).toString('hex');
    expect(recoverAddress(depositWalletDigest(separator, contents, 137, WALLET), inner)).toBe(privateKeyToAddress(privateKeyBytes(new Secret(KEY), 'k')));
    expect((signed.order.signature.length - 2) / 2).toBe(WRAPPED_SIGNATURE_LENGTH);
    expect(TYPED_DATA_SIGN_TYPE_STRING.startsWith('TypedDataSign(Order contents,string name,string version,uint256 chainId,address verifyingContract,bytes32 salt)Order(')).toBe(true);
  });

  it('refuses a type-3 account without a wallet, or with the signer as its wallet', () => {
    expect(() => createOrderSigner({ ...account, maker: undefined }, { profile: 'polymarket' })).toThrow(ConfigError);
    expect(() => createOrderSigner({ ...account, maker: OWNER }, { profile: 'polymarket' })).toThrow(/deposit wallet/);
  });

  it('an unwrapped or altered signature does not unwrap', () => {
    const signed = createOrderSigner(account, { profile: 'polymarket' }).sign({
      tokenId: TOKEN, price: 520_000, size: 100_000_000, side: 'SELL', tick: 10_000, negRisk: true, orderType: 'GTC', salt: 7, timestamp: 1_700_000_000_001,
    });
    const sig = signed.order.signature;
    expect(unwrapDepositWalletSignature(sig.slice(0, 132))).toBeUndefined();
    expect(unwrapDepositWalletSignature(sig.slice(0, -4) + '00bb')).toBeUndefined();
    expect(unwrapDepositWalletSignature(sig + '00')).toBeUndefined();
  });
});

const KNOWN = {
  hash: '0x035a8130cbc5be3c9a93830d0dc32510e68a0701b843ddbac9a6ae3ad85a12f6',
  signature:
    '0x40937237b2c40457149174b880cf1ccec4bedfe1dcc620bcc107a58089c63a5d23c21ab3a1ec21a961e39fccc9575cd76191d1dd797abb56f63e2857885b404e1c' +
    '3264e159346253e26a64e00b69032db0e7d32f94628de3e6eecb50304d7af3d2fbd0ca911fb393f96fccb2a897b21606a229ae7b875f2ac6d3134e3cb0f6a630' +
    '4f726465722875696e743235362073616c742c61646472657373206d616b65722c61646472657373207369676e65722c75696e7432353620746f6b656e49642c75696e74323536206d616b6572416d6f756e742c75696e743235362074616b6572416d6f756e742c75696e743820736964652c75696e7438207369676e6174757265547970652c75696e743235362074696d657374616d702c62797465733332206d657461646174612c62797465733332206275696c6465722900ba',
};

