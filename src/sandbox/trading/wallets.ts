import { keccak256 } from '../../venue/signing/keccak256.ts';
import { isAddress, toChecksumAddress } from '../../venue/signing/address.ts';
import { toHex } from '../../venue/signing/hex.ts';

/**
 * Which wallets each signing key controls in the sandbox. On the venue an order's `maker` may be
 * the signing key itself (signature type 0), its proxy wallet (1), its Gnosis safe (2) or its
 * deposit wallet (3); the exchange contract only lets a key trade a wallet it controls. The
 * real addresses come from CREATE2 over factories deployed on Polygon; the sandbox has no chain,
 * so it uses one documented rule instead, the same in both profiles and across restarts:
 *
 *     wallet(owner, kind) = last 20 bytes of keccak256("clobot-sandbox-wallet:" ‖ kind ‖ ":" ‖ owner's 20 bytes)
 *
 * with kind `proxy`, `safe` or `deposit` (docs/protocol-additions.md "Sandbox wallets").
 * A key's wallets are registered when it derives API credentials (the account is created), and
 * `GET /admin/wallets` lists them. The order routes accept an order only when its signer
 * controls its maker; the balance route answers only the caller's own wallets.
 */

export const WALLET_KINDS = ['proxy', 'safe', 'deposit'] as const;
export type WalletKind = (typeof WALLET_KINDS)[number];

/** The wallets of one signing key (all checksummed). */
export interface OwnedWallets {
  readonly owner: string;
  readonly proxy: string;
  readonly safe: string;
  readonly deposit: string;
}

/** Signature type → the kind of wallet its `maker` must be (0: the key itself). */
export const WALLET_OF_SIGNATURE_TYPE: Readonly<Record<number, WalletKind | 'owner'>> = { 0: 'owner', 1: 'proxy', 2: 'safe', 3: 'deposit' };

const encoder = new TextEncoder();

/** The sandbox's address of `owner`'s wallet of `kind` (the rule above). */
export function sandboxWalletAddress(owner: string, kind: WalletKind): string {
  if (!isAddress(owner)) throw new RangeError(`sandbox wallet: owner must be a 0x address, was ${owner.slice(0, 60)}`);
  const prefix = encoder.encode(`clobot-sandbox-wallet:${kind}:`);
  const input = new Uint8Array(prefix.length + 20);
  input.set(prefix, 0);
  input.set(Buffer.from(owner.slice(2), 'hex'), prefix.length);
  return toChecksumAddress(toHex(keccak256(input).subarray(12)));
}

/** All three wallets of `owner`. */
export function sandboxWalletsOf(owner: string): OwnedWallets {
  const o = toChecksumAddress(owner);
  return { owner: o, proxy: sandboxWalletAddress(o, 'proxy'), safe: sandboxWalletAddress(o, 'safe'), deposit: sandboxWalletAddress(o, 'deposit') };
}

export class WalletRegistry {
  readonly #byOwner = new Map<string, OwnedWallets>();
  /** lowercase wallet address → its owner's wallets */
  readonly #byWallet = new Map<string, OwnedWallets>();

  /** Registers `owner`'s wallets (idempotent) and returns them. */
  open(owner: string): OwnedWallets {
    const key = owner.toLowerCase();
    const known = this.#byOwner.get(key);
    if (known !== undefined) return known;
    const wallets = sandboxWalletsOf(owner);
    this.#byOwner.set(key, wallets);
    for (const kind of WALLET_KINDS) this.#byWallet.set(wallets[kind].toLowerCase(), wallets);
    return wallets;
  }

  /**
   * The wallet `owner` trades through with `signatureType` (0: itself), or undefined for a type
   * that has none.
   */
  walletFor(owner: string, signatureType: number): string | undefined {
    const kind = WALLET_OF_SIGNATURE_TYPE[signatureType];
    if (kind === undefined) return undefined;
    const wallets = this.open(owner);
    return wallets[kind];
  }

  /** Whether `owner` may sign for `maker` with `signatureType`. */
  controls(owner: string, maker: string, signatureType: number): boolean {
    const wallet = this.walletFor(owner, signatureType);
    return wallet !== undefined && wallet.toLowerCase() === maker.toLowerCase();
  }

  /** The signing key that controls `wallet`, when it is a registered wallet. */
  ownerOf(wallet: string): string | undefined {
    return this.#byWallet.get(wallet.toLowerCase())?.owner;
  }

  /** Every registered key's wallets, in registration order (admin). */
  all(): OwnedWallets[] {
    return [...this.#byOwner.values()];
  }
}
