import { describe } from 'vitest';
import { marketOpen } from '../../../src/risk/checks/market-open.ts';
import { markets, runTable, view } from '../fixtures.ts';

describe('marketOpen', () => {
  runTable(marketOpen, 'marketOpen', [
    { name: 'accepting orders', code: undefined },
    { name: 'not accepting orders', state: { markets: markets(view({ acceptingOrders: false })) }, code: 'MARKET_CLOSED', message: 'market 0xc1 is not accepting orders' },
    { name: 'unknown token', req: { tokenId: 'nope' }, code: 'UNKNOWN_MARKET' },
  ]);
});
