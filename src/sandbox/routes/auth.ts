import type { FastifyInstance } from 'fastify';
import type { WireApiKey } from '../../venue/wire/account.ts';
import type { SandboxContext } from '../context.ts';
import { authenticateL1 } from '../trading/auth.ts';

/**
 * L1 key routes (PROTOCOL "L1 key derivation"): `POST /auth/api-key` and `GET
 * /auth/derive-api-key` both check the ClobAuth headers and answer the credentials of (address,
 * nonce), which are always the same for the same pair; either route may be called first, and
 * either registers the key for L2 use and the signing key's wallets (trading/wallets.ts).
 */
export function registerAuthRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const issue = (request: Parameters<typeof authenticateL1>[1]): WireApiKey => {
    const { address, nonce } = authenticateL1(ctx, request);
    const record = ctx.apiKeys.issue(address, nonce);
    ctx.wallets.open(address);
    return { apiKey: record.apiKey, secret: record.secret, passphrase: record.passphrase };
  };
  app.post('/auth/api-key', { config: { routeId: 'createApiKey' } }, issue);
  app.get('/auth/derive-api-key', { config: { routeId: 'deriveApiKey' } }, issue);
}
