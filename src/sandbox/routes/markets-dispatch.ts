import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RouteId } from '../../venue/endpoints.ts';
import type { SandboxContext } from '../context.ts';
import { metadataMarket } from './metadata.ts';
import { checkedQuery } from './query.ts';
import { tradingMarket } from './trading.ts';

/**
 * `/markets/{x}` on the root mount serves both forms (PROTOCOL "Profiles"): the trading form
 * when `x` is a `0x` condition id, the metadata form otherwise (a numeric market id). Under
 * `/gamma` and `/clob` each group serves its own form.
 */
export function registerMarketsDispatch(app: FastifyInstance, ctx: SandboxContext): void {
  const resolveRoute = (request: FastifyRequest): RouteId =>
    (request.params as { x?: string }).x?.startsWith('0x') ? 'getTradingMarket' : 'getMetadataMarket';
  app.get('/markets/:x', { config: { resolveRoute } }, (request) => {
    const { x } = request.params as { x: string };
    if (request.sandboxRoute === 'getTradingMarket') {
      checkedQuery('getTradingMarket', request);
      return tradingMarket(ctx, x);
    }
    return metadataMarket(ctx, x, checkedQuery('getMetadataMarket', request));
  });
}
