/**
 * The one decoder module: wire JSON -> domain, for every read route, split by route group under
 * decode/ (one file per group, the field readers in decode/fields.ts) behind this index, which
 * every importer reads. Trading numbers (decimal strings) become Micros digit by digit, never
 * through a float; a bad value throws a DecodeError naming the field path, e.g. `books[3].bids[7].price`. Metadata, analytics and
 * comments are validated field by field (types checked, dates to epoch ms, JSON-text arrays
 * decoded). Real payloads differ from the interface in known ways, all accepted here: nulls
 * for absent values, older shapes lacking fields, numbers where strings are documented (and
 * back), and snake_case spellings next to camelCase ones.
 */

export { parseJsonText } from './decode/fields.ts';
export {
  decodeBatchPricesHistory,
  decodeFeeRate,
  decodeMidpoint,
  decodeNegRisk,
  decodeOk,
  decodeOrderBook,
  decodeOrderBooks,
  decodeOrderBooksText,
  decodePricesHistory,
  decodeServerTime,
  decodeTickSize,
  decodeTokenPrice,
  decodeTokenPrices,
  decodeVersion,
} from './decode/books.ts';
export {
  decodePage,
  decodeSimplifiedMarket,
  decodeSimplifiedMarketsPage,
  decodeTradingMarket,
  decodeTradingMarketsPage,
  END_CURSOR,
  FIRST_CURSOR,
} from './decode/markets.ts';
export {
  decodeEvent,
  decodeEventCreators,
  decodeEvents,
  decodeEventSummary,
  decodeMetadataMarket,
  decodeSearchResults,
  decodeTag,
  decodeTags,
} from './decode/metadata.ts';
export { decodeActivity, decodeClosedPositions, decodeHolderGroups, decodePositions, decodeTradeFills } from './decode/analytics.ts';
export { decodeComment, decodeComments } from './decode/comments.ts';
export { decodeAccountOrder, decodeAccountOrdersPage, decodeAccountTrade, decodeAccountTradesPage } from './decode/account-data.ts';
export {
  decodeApiCredentials,
  decodeBalanceAllowance,
  decodeCancelResult,
  decodeHeartbeatId,
  decodeHeartbeatStatus,
  decodeOrderPostResult,
  decodeOrderPostResults,
} from './decode/orders.ts';
