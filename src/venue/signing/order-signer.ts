import { ConfigError, ParameterError } from '../../core/errors.ts';
import type { Secret } from '../../core/secret.ts';
import type { OrderType } from '../../core/types.ts';
import type { WireOrderSubmission, WireSignedOrder } from '../wire/account.ts';
import { isAddress, privateKeyToAddress, sameAddress, toChecksumAddress } from './address.ts';
import { createDigestSigner, type DigestSigner, type DigestSignerCounters } from './digest-signer.ts';
import { signDigest } from './ecdsa.ts';
import { depositWalletDigest, wrapDepositWalletSignature } from './deposit-wallet.ts';
import {
  DEFAULT_EXCHANGE_ADDRESSES,
  domainSeparator,
  hashOrderStruct,
  typedDataDigest,
  orderDomain,
  orderDigest,
  POLYGON_CHAIN_ID,
  ZERO_BYTES32,
  type OrderStruct,
} from './eip712.ts';
import { isHexOfLength, toHex } from './hex.ts';
import { buildOrder, type OrderParams, type OrderParty, type UnsignedOrder } from './order-builder.ts';
import { SignerWireOrder } from './order-json.ts';
import { privateKeyBytes } from './private-key.ts';
import type { VenueProfile } from './profile.ts';

/** The account that signs orders. */
export interface SigningAccount {
  readonly privateKey: Secret<string>;
  /** EOA of the private key; checked against it. */
  readonly signerAddress: string;
  /**
   * Funder address; defaults to the signer. Must be the signer for signature type 0; the
   * deposit wallet (required) for type 3.
   */
  readonly maker?: string;
  /** 0 EOA, 1 proxy wallet, 2 Gnosis safe, 3 deposit wallet (POLY_1271, deposit-wallet.ts). */
  readonly signatureType: 0 | 1 | 2 | 3;
}

export interface OrderSignerOptions {
  readonly profile: VenueProfile;
  readonly chainId?: number;
  /** Verifying contracts; defaults to DEFAULT_EXCHANGE_ADDRESSES. */
  readonly exchanges?: { readonly standard: string; readonly negRisk: string };
  /** bytes32 builder code; defaults to zero. */
  readonly builder?: string;
  /**
   * Helper threads that sign with the calling thread in `signMany` (see digest-signer.ts).
   * Default 0 (config: `execution.signing.helpers`).
   */
  readonly signingHelpers?: number;
  /** How long a helper polls for work after a round before it sleeps (digest-signer.ts). Default 0. */
  readonly helperSpinMs?: number;
}

/** A signed order: its JSON, and its hash, which is the order id the venue will return. */
export interface SignedOrder {
  /** 0x lowercase EIP-712 digest. */
  readonly orderHash: string;
  readonly order: WireSignedOrder;
  readonly orderType: OrderType;
  readonly postOnly: boolean;
}

export interface OrderSigner {
  /** Checksummed EOA that signs (the wallet's owner for type 3, whose order `signer` is the wallet). */
  readonly signerAddress: string;
  /** Checksummed funder address. */
  readonly maker: string;
  readonly profile: VenueProfile;
  /** Builds, hashes and signs one order. Throws OrderBuildError before signing on bad params. */
  sign(params: OrderParams): SignedOrder;
  /**
   * Builds and hashes every order, then signs them together (with the helper threads, if any).
   * One result per params, same index: the signed order, or the ParameterError (OrderBuildError)
   * that refused it, so one bad order never costs the others. Same bytes as `sign` one by one.
   */
  signMany(params: readonly OrderParams[]): (SignedOrder | ParameterError)[];
  /** Who signed what so far in `signMany`. */
  readonly signingCounters: Readonly<DigestSignerCounters>;
  /** Stops the helper threads, if any (signing goes on in the calling thread). */
  close(): void;
}

/**
 * Resolves the account once (key bytes, checksummed addresses, the two domain separators) and
 * returns a synchronous signer. The key bytes stay in this closure; nothing here logs.
 */
export function createOrderSigner(account: SigningAccount, options: OrderSignerOptions): OrderSigner {
  const key = privateKeyBytes(account.privateKey, 'account.privateKey');
  const derived = privateKeyToAddress(key);
  if (!isAddress(account.signerAddress) || !sameAddress(derived, account.signerAddress)) {
    throw new ConfigError(`account.signerAddress: ${account.signerAddress} is not the address of the private key`);
  }
  const signer = derived;
  const makerText = account.maker ?? signer;
  if (!isAddress(makerText)) throw new ConfigError(`account.maker: ${makerText} is not a valid address`);
  const maker = toChecksumAddress(makerText);
  const signatureType = account.signatureType;
  if (signatureType !== 0 && signatureType !== 1 && signatureType !== 2 && signatureType !== 3) {
    throw new ConfigError(`account.signatureType: must be 0, 1, 2 or 3, was ${String(signatureType)}`);
  }
  if (signatureType === 0 && maker !== signer) {
    throw new ConfigError('account.maker: must be the signer address for signature type 0 (EOA)');
  }
  if (signatureType === 3 && (account.maker === undefined || maker === signer)) {
    throw new ConfigError('account.maker: must be the deposit wallet (not the signer) for signature type 3');
  }
  const builder = options.builder ?? ZERO_BYTES32;
  if (!isHexOfLength(builder, 32)) throw new ConfigError('builder: must be 0x and 32 bytes of hex');
  const chainId = options.chainId ?? POLYGON_CHAIN_ID;
  const exchanges = options.exchanges ?? DEFAULT_EXCHANGE_ADDRESSES;
  for (const [name, address] of Object.entries(exchanges)) {
    if (!isAddress(address)) throw new ConfigError(`exchanges.${name}: ${address} is not a valid address`);
  }
  const standardDomain = domainSeparator(orderDomain(exchanges.standard, chainId));
  const negRiskDomain = domainSeparator(orderDomain(exchanges.negRisk, chainId));
  // type 3: the wallet is maker and signer of the order; the key signs for it (deposit-wallet.ts)
  const party: OrderParty = { maker, signer: signatureType === 3 ? maker : signer, signatureType, builder };
  const profile = options.profile;
  const digests: DigestSigner = createDigestSigner(key, { helpers: options.signingHelpers ?? 0, spinMs: options.helperSpinMs });
  const finish = (unsigned: UnsignedOrder, digest: Uint8Array, signature: Uint8Array): SignedOrder => ({
    orderHash: toHex(digest),
    order: new SignerWireOrder(unsigned, toHex(signature), profile),
    orderType: unsigned.orderType,
    postOnly: unsigned.postOnly,
  });
  if (signatureType === 3) {
    return depositWalletSigner({ signer, maker, profile, digests, key, chainId, party, standardDomain, negRiskDomain, finish });
  }

  return {
    signerAddress: signer,
    maker,
    profile,
    signingCounters: digests.counters,
    sign(params: OrderParams): SignedOrder {
      const unsigned = buildOrder(params, party, profile);
      const digest = orderDigest(unsigned.negRisk ? negRiskDomain : standardDomain, unsigned.struct);
      return finish(unsigned, digest, signDigest(digest, key));
    },
    signMany(params: readonly OrderParams[]): (SignedOrder | ParameterError)[] {
      const out = new Array<SignedOrder | ParameterError>(params.length);
      // parallel arrays, filled in one loop: what was built, its digest, and its index in `params`
      const built: UnsignedOrder[] = [];
      const builtDigests: Uint8Array[] = [];
      const builtAt: number[] = [];
      for (let index = 0; index < params.length; index++) {
        try {
          const unsigned = buildOrder(params[index] as OrderParams, party, profile);
          builtDigests.push(orderDigest(unsigned.negRisk ? negRiskDomain : standardDomain, unsigned.struct));
          built.push(unsigned);
          builtAt.push(index);
        } catch (err) {
          if (!(err instanceof ParameterError)) throw err;
          out[index] = err;
        }
      }
      const signatures = digests.signAll(builtDigests);
      for (let k = 0; k < built.length; k++) {
        out[builtAt[k] as number] = finish(built[k] as UnsignedOrder, builtDigests[k] as Uint8Array, signatures[k] as Uint8Array);
      }
      return out;
    },
    close() {
      digests.close();
    },
  };
}

interface DepositWalletParts {
  readonly signer: string;
  readonly maker: string;
  readonly profile: VenueProfile;
  readonly digests: DigestSigner;
  readonly key: Uint8Array;
  readonly chainId: number;
  readonly party: OrderParty;
  readonly standardDomain: Uint8Array;
  readonly negRiskDomain: Uint8Array;
  readonly finish: (unsigned: UnsignedOrder, digest: Uint8Array, signature: Uint8Array) => SignedOrder;
}

/**
 * The signer of a deposit-wallet account (type 3): the order hash as for the other types, the
 * key's signature over the wallet's TypedDataSign digest, wrapped (deposit-wallet.ts). A separate
 * closure so the paths of types 0-2 stay as they are.
 */
function depositWalletSigner(p: DepositWalletParts): OrderSigner {
  const { party, profile, chainId, finish } = p;
  interface Prepared {
    readonly unsigned: UnsignedOrder;
    readonly orderHash: Uint8Array;
    readonly separator: Uint8Array;
    readonly contentsHash: Uint8Array;
    readonly toSign: Uint8Array;
  }
  const prepare = (params: OrderParams): Prepared => {
    const unsigned = buildOrder(params, party, profile);
    const separator = unsigned.negRisk ? p.negRiskDomain : p.standardDomain;
    const contentsHash = hashOrderStruct(unsigned.struct);
    const orderHash = typedDataDigest(separator, contentsHash);
    const toSign = depositWalletDigest(separator, contentsHash, chainId, party.maker);
    return { unsigned, orderHash, separator, contentsHash, toSign };
  };
  const done = (x: Prepared, inner: Uint8Array): SignedOrder =>
    finish(x.unsigned, x.orderHash, wrapDepositWalletSignature(inner, x.separator, x.contentsHash));
  return {
    signerAddress: p.signer,
    maker: p.maker,
    profile,
    signingCounters: p.digests.counters,
    sign(params: OrderParams): SignedOrder {
      const x = prepare(params);
      return done(x, signDigest(x.toSign, p.key));
    },
    signMany(params: readonly OrderParams[]): (SignedOrder | ParameterError)[] {
      const out = new Array<SignedOrder | ParameterError>(params.length);
      const prepared: Prepared[] = [];
      const at: number[] = [];
      for (let index = 0; index < params.length; index++) {
        try {
          prepared.push(prepare(params[index] as OrderParams));
          at.push(index);
        } catch (err) {
          if (!(err instanceof ParameterError)) throw err;
          out[index] = err;
        }
      }
      const signatures = p.digests.signAll(prepared.map((x) => x.toSign));
      for (let k = 0; k < prepared.length; k++) out[at[k] as number] = done(prepared[k] as Prepared, signatures[k] as Uint8Array);
      return out;
    },
    close() {
      p.digests.close();
    },
  };
}

/** Hashes an order struct under a domain separator and signs the digest. */
export function signOrderStruct(
  struct: OrderStruct,
  separator: Uint8Array,
  privateKey: Uint8Array,
): { orderHash: string; signature: string } {
  const digest = orderDigest(separator, struct);
  return { orderHash: toHex(digest), signature: toHex(signDigest(digest, privateKey)) };
}

/**
 * The order JSON (2.16) as a plain object (see SignerWireOrder for the layout per profile). The
 * signer's own orders are SignerWireOrder instances; this copy is for callers that build one
 * from a struct they made themselves, so it is never taken for a signer-checked order.
 */
export function toWireOrder(unsigned: UnsignedOrder, signature: string, profile: VenueProfile): WireSignedOrder {
  return { ...new SignerWireOrder(unsigned, signature, profile) };
}

/** One item of `POST /orders` (or the body of `POST /order`); `postOnly` only when set. */
export function toOrderSubmission(signed: SignedOrder, owner: string): WireOrderSubmission {
  const item: WireOrderSubmission = { order: signed.order, orderType: signed.orderType, owner };
  if (signed.postOnly) item.postOnly = true;
  return item;
}
