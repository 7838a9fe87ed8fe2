/** Who an authenticated request comes from (trading/auth.ts checks the headers). */

/** The caller of an L2 request: the API key and the wallet it belongs to. */
export interface Caller {
  /** Checksummed wallet address the API key belongs to. */
  readonly address: string;
  readonly apiKey: string;
}

/** The signer of an L1 request (ClobAuth): the wallet and the key nonce it asks for. */
export interface L1Signer {
  /** Checksummed wallet address. */
  readonly address: string;
  readonly nonce: bigint;
}
