import { crashLoop, SETTLEMENT } from './crash-loop.ts';

// The crash loop with trades settling on chain (some RETRYING, some FAILED) and every marketable order DELAYED (issue 13).
crashLoop('settlement failures and matching delays on', SETTLEMENT);
