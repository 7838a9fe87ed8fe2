import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const STRATEGY_API = fileURLToPath(new URL('../../src/strategy/index.ts', import.meta.url));

/**
 * The text of a strategy module that throws in onBook once the book has a bid, from a helper
 * function, so a stack has two frames of its code. `withParams`: it declares a zod param `x`
 * (sweepable; the folder then needs zod in its node_modules).
 */
function strategyText(withParams: boolean): string {
  return `${withParams ? "import { z } from 'zod';\n" : ''}import { defineStrategy } from ${JSON.stringify(STRATEGY_API)};

export default defineStrategy({
  name: 'thrower',
  description: 'Throws in onBook once the book has a bid (fault reporting tests).',
${withParams ? '  params: z.strictObject({ x: z.number().default(1) }),\n' : ''}  onBook({ market }) {
    if (market.bestBid !== undefined) explode(market.tokenId);
    return undefined;
  },
});

function explode(tokenId: string): never {
  throw new Error(\`deliberate failure on \${tokenId}\`);
}
`;
}

export interface ThrowingStrategy {
  readonly path: string;
  /** 1-based lines of the throw and of the call in onBook, as a stack names them. */
  readonly throwLine: number;
  readonly callLine: number;
  /** The innermost frame of the stack: `at explode (<path>:<throwLine>:9)`. */
  readonly frame: string;
}

/** Writes the module as `<dir>/thrower.ts` (a user's own folder: a test makes it an ES module package). */
export function writeThrowingStrategy(dir: string, options: { withParams?: boolean } = {}): ThrowingStrategy {
  const text = strategyText(options.withParams === true);
  const path = join(dir, 'thrower.ts');
  writeFileSync(path, text);
  const lines = text.split('\n');
  const throwLine = lines.findIndex((l) => l.includes('throw new Error')) + 1;
  const callLine = lines.findIndex((l) => l.includes('explode(market.tokenId)')) + 1;
  return { path, throwLine, callLine, frame: `at explode (${path}:${throwLine}:9)` };
}
