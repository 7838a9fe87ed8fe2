/**
 * The synthetic flow's own accounts. Owners (the engine's API-key field) and wallet addresses
 * both start with `flow-`: a real client's API key is a uuid and its wallet a `0x` address
 * taken from a signed order, so neither can ever be one of these, and no client can sign for
 * (or spend from) an agent's wallet.
 */
export const FLOW_ACCOUNT_PREFIX = 'flow-';

/** Maker accounts; a market is quoted by maker `market.index % FLOW_MAKERS`. */
export const FLOW_MAKERS = 4;
/** Taker accounts; each taker order picks one at random. */
export const FLOW_TAKERS = 3;

export function makerAccount(i: number): string {
  return `${FLOW_ACCOUNT_PREFIX}maker-${i}`;
}

export function takerAccount(i: number): string {
  return `${FLOW_ACCOUNT_PREFIX}taker-${i}`;
}

/** Every agent account (owner = address), makers first. */
export function flowAccounts(): string[] {
  const out: string[] = [];
  for (let i = 0; i < FLOW_MAKERS; i++) out.push(makerAccount(i));
  for (let i = 0; i < FLOW_TAKERS; i++) out.push(takerAccount(i));
  return out;
}

/** True for an owner, address or order id made by the synthetic flow. */
export function isFlowAccount(ownerOrAddress: string): boolean {
  return ownerOrAddress.startsWith(FLOW_ACCOUNT_PREFIX);
}
