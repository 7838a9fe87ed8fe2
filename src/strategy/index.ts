/** The public surface for strategy authors: import from here (and src/core) only. */
export * from './api.ts';
export * from '../core/intents.ts';
export { px, qty } from './units.ts';
