/**
 * One line for a strategy module that failed to load: the file, the cause and the fix. The
 * causes a user meets are named: a package the module imports is not installed (`clobot`
 * itself, in a folder that is not a clobot project), a syntax error (with its file:line:col),
 * and an error the module throws while it loads (with the first line of the user's own file in
 * its stack).
 */
export function loadFailure(module: string, modulePath: string, err: unknown): string {
  const head = `strategy module '${module}' (${modulePath}) failed to load`;
  const e = err instanceof Error ? (err as Error & { code?: unknown }) : undefined;
  const message = firstLine(e ? e.message : String(err));
  const missing = /Cannot find (?:package|module) '([^']+)'/.exec(e?.message ?? '');
  if (missing && (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND')) {
    const name = missing[1]!;
    if (name === 'clobot' || name.startsWith('clobot/')) {
      return `${head}: it imports '${name}', which is not installed where the module lives; fix: run \`npm install clobot\` in the strategy's project (\`clobot init <dir>\` makes one)`;
    }
    if (name.startsWith('.') || name.startsWith('/')) return `${head}: ${message}; fix: correct the import path in the module`;
    return `${head}: it imports the package '${name}', which is not installed; fix: run \`npm install ${name}\` in the strategy's project`;
  }
  const text = stripAnsi(e?.message ?? '');
  if (e?.name === 'TransformError' || e instanceof SyntaxError || text.startsWith('Transform failed')) {
    const where = /([^\s[\]()]+:\d+:\d+)/.exec(text)?.[1];
    const what = /(?:ERROR|PARSE_ERROR\]?):?\s*(.+)/.exec(text)?.[1]?.trim() ?? message;
    return `${head}: syntax error${where ? ` at ${where}` : ''}: ${what}; fix: correct the module`;
  }
  const at = e?.stack?.split('\n').find((line) => line.includes(modulePath));
  const place = at ? ` (${at.trim().replace(/^at\s+/, '')})` : '';
  return `${head}: it threw while loading: ${message}${place}; fix: correct the module's top-level code (run \`clobot validate <config>\` to try again)`;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}
