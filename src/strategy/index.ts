/** The strategy room's surface: what `clobot` (src/index.ts) publishes to strategy authors. */
export * from './api.ts';
export * from '../core/intents.ts';
export * from './money.ts';
