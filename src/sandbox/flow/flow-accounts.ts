import { createHash } from 'node:crypto';
import { checksumAddress } from '../world/ids.ts';

/**
 * The synthetic flow's own accounts. An agent's owner (the engine's API-key slot) is a
 * `flow-...` name: real API keys are uuids, so no client can ever cancel or list an agent's
 * orders. Its wallet is a checksummed address taken from a hash of a fixed label (as the seeded
 * liquidity's is), so analytics routes show well-formed addresses; a client's wallet is its
 * own key's address, and finding a key for one of these would take a keccak preimage.
 */
export interface FlowAccount {
  readonly owner: string;
  readonly address: string;
}

export const FLOW_OWNER_PREFIX = 'flow-';

/** Maker accounts; a market is quoted by maker `market.index % FLOW_MAKERS`. */
export const FLOW_MAKERS = 4;
/** Taker accounts; each taker order picks one at random. */
export const FLOW_TAKERS = 3;

function account(kind: 'maker' | 'taker', i: number): FlowAccount {
  const owner = `${FLOW_OWNER_PREFIX}${kind}-${i}`;
  const address = checksumAddress(createHash('sha256').update(`clobot sandbox flow ${kind} ${i}`).digest('hex').slice(0, 40));
  return Object.freeze({ owner, address });
}

export const FLOW_MAKER_ACCOUNTS: readonly FlowAccount[] = Object.freeze(Array.from({ length: FLOW_MAKERS }, (_, i) => account('maker', i)));
export const FLOW_TAKER_ACCOUNTS: readonly FlowAccount[] = Object.freeze(Array.from({ length: FLOW_TAKERS }, (_, i) => account('taker', i)));

/** Every agent account, makers first. */
export const FLOW_ACCOUNTS: readonly FlowAccount[] = Object.freeze([...FLOW_MAKER_ACCOUNTS, ...FLOW_TAKER_ACCOUNTS]);

/** The account that quotes the neg-risk episodes' mispriced depth (neg-risk-episodes.ts). */
export const EPISODE_ACCOUNT: FlowAccount = Object.freeze({
  owner: `${FLOW_OWNER_PREFIX}episodes`,
  address: checksumAddress(createHash('sha256').update('clobot sandbox flow episodes').digest('hex').slice(0, 40)),
});

const FLOW_ADDRESSES: ReadonlySet<string> = new Set([...FLOW_ACCOUNTS, EPISODE_ACCOUNT].map((a) => a.address.toLowerCase()));

/** True for an agent's owner name or wallet address (any case). */
export function isFlowAccount(ownerOrAddress: string): boolean {
  return ownerOrAddress.startsWith(FLOW_OWNER_PREFIX) || FLOW_ADDRESSES.has(ownerOrAddress.toLowerCase());
}
