import { readFileSync } from 'node:fs';

export interface SigningVectors {
  l2_hmac: {
    secret_base64url: string;
    timestamp: string;
    method: string;
    path: string;
    body: string;
    signing_string: string;
    signature_base64url: string;
    signature_hex: string;
  };
  order_eip712_v2: {
    type_string: string;
    domain_type_string: string;
    privateKey: string;
    address: string;
    domain: { name: string; version: string; chainId: number; verifyingContract: string };
    message: {
      salt: string;
      maker: string;
      signer: string;
      tokenId: string;
      makerAmount: string;
      takerAmount: string;
      timestamp: string;
      side: 0 | 1;
      signatureType: number;
      metadata: string;
      builder: string;
    };
    orderHash: string;
    signature: string;
  };
  l1_clob_auth: {
    domain: { name: string; version: string; chainId: number };
    type_string: string;
    message_text: string;
    privateKey: string;
    address: string;
    timestamp: string;
    nonce: string;
    signature: string;
  };
  order_amounts: { side: 'BUY' | 'SELL'; price: string; size: string; tick: string; makerAmount: string; takerAmount: string }[];
}

/** The known answers produced by the venue's official SDK, in `shared/` beside the repository. */
export const VECTORS_SHARED = new URL('../../../../shared/vectors/signing-vectors.json', import.meta.url);

export function loadVectors(): SigningVectors {
  return JSON.parse(readFileSync(VECTORS_SHARED, 'utf8')) as SigningVectors;
}
