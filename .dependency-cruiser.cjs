// Import rules of clobot, checked by `npm run lint` (issue 11 point 7, tightened in issue 20 point 7).
//
// The rooms of src/ import one way (ARCHITECTURE.md, "Components and their rooms", and
// docs/design-notes.md note 22):
//   core <- venue <- data, execution <- sim (execution's ExecutionClient port only)
//   core <- risk, strategy, portfolio (each on core alone)
//   <- engine <- config, store <- backtest <- app <- jobs <- optimize <- cli
// store and backtest are adapters beside the engine: they may import its ports, the engine never
// imports them; backtest reads runs back through the store, the store never imports backtest.
// control (the control API and dashboard) is one more such adapter, on the engine and the store.
// The sandbox sits beside app, on core, venue (never its client nor its actions) and sim.
//
// Each room lists exactly the rooms its code imports today (depcruise's room-to-room graph), not
// everything below it in the order: a new kind of import is a decision, made here with a reason,
// not an accident. Any other room of src/ is a violation.

/** @type {Record<string, string[]>} */
const MAY_IMPORT = {
  core: [],
  venue: ['core'],
  data: ['core', 'venue'],
  execution: ['core', 'venue'],
  sim: ['core', 'venue'], // plus src/execution/execution-client.ts, see SIM_PORTS
  // the strategy author's API, risk checks and the books of account are pure: core's types only
  risk: ['core'],
  strategy: ['core'],
  portfolio: ['core'],
  engine: ['core', 'venue', 'data', 'execution', 'risk', 'strategy', 'portfolio'],
  // config names what it validates: the wire profiles (venue), the risk checks, the queue models (sim)
  config: ['core', 'venue', 'data', 'sim', 'risk', 'strategy'],
  store: ['core', 'data', 'execution', 'portfolio', 'engine'],
  backtest: ['core', 'data', 'sim', 'portfolio', 'engine', 'config', 'store'],
  sandbox: ['core', 'venue', 'sim'],
  // the control server and dashboard (issue 23): an adapter beside store and backtest, over the
  // engine's state and commands (a running engine) or a store file (read-only); the app plugs it
  control: ['core', 'portfolio', 'engine', 'store'],
  // what a run tells the outside (Prometheus /metrics, alert webhooks), over the engine's bus and metrics
  telemetry: ['core', 'engine', 'config'],
  app: ['core', 'venue', 'data', 'execution', 'sim', 'strategy', 'engine', 'config', 'store', 'backtest', 'sandbox', 'control', 'telemetry'],
  // backtest jobs (a resolved config and data named by content hash), the JobRunner port and its
  // adapters (the local worker pool), and the sweep over them; a job runs the app's backtest
  jobs: ['core', 'strategy', 'config', 'backtest', 'app'],
  // the optimiser (issue 24 point 3): a search space over config keys, the samplers (TPE, random),
  // walk-forward folds, and its loop, which runs trials as backtest jobs through the JobRunner port
  optimize: ['core', 'config', 'backtest', 'jobs'],
  cli: ['core', 'venue', 'data', 'engine', 'config', 'store', 'backtest', 'sandbox', 'control', 'app', 'jobs', 'optimize', 'telemetry'],
  // `clobot/testing`: runs a strategy through the app's backtest in virtual time; beside cli
  testing: ['core', 'data', 'strategy', 'portfolio', 'config', 'backtest', 'app'],
};

// The one file of execution/ that sim/ may import: the port its simulated edge implements.
const SIM_PORTS = ['^src/execution/execution-client\\.ts$'];

// What an example strategy may import from this repository: the strategy author's API, the
// package's `clobot` (src/index.ts) and `clobot/testing` (src/testing/index.ts), as a user's
// project imports them (tsconfig.json's paths map both names to these files).
const STRATEGY_AUTHOR_API = ['^src/index\\.ts$', '^src/testing/index\\.ts$'];

/** Every rule is an error: any violation fails `npm run lint`. */
const forbid = (name, comment, from, to) => ({ name, severity: 'error', comment, from, to });

const roomRules = Object.entries(MAY_IMPORT).map(([room, allowed]) =>
  forbid(
    `room-${room}`,
    `src/${room} may import only ${allowed.length === 0 ? 'itself' : allowed.map((r) => `src/${r}`).join(', ')}` +
      ' (the room order of ARCHITECTURE.md)',
    { path: `^src/${room}/` },
    { path: '^src/[^/]+/', pathNot: [`^src/(${[room, ...allowed].join('|')})/`, ...(room === 'sim' ? SIM_PORTS : [])] },
  ),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...roomRules,
    forbid(
      'room-unknown',
      'every folder of src/ is a room with a place in MAY_IMPORT (.dependency-cruiser.cjs)',
      // the public entry points at the top of src/ (index.ts: `clobot`) may import any room
      { path: '^src/', pathNot: [`^src/(${Object.keys(MAY_IMPORT).join('|')})/`, '^src/[^/]+\\.[cm]?[jt]s$'] },
      { path: '^src/[^/]+/' },
    ),
    forbid(
      'no-public-entry-inside',
      'the public entry points at the top of src/ are for users; no room imports them',
      { path: '^src/[^/]+/' },
      { path: '^src/[^/]+\\.[cm]?[jt]s$' },
    ),
    forbid(
      'no-circular',
      'no import cycle between files (type-only imports count: they tie the designs together)',
      {},
      { circular: true },
    ),
    forbid(
      'sandbox-not-to-venue-client',
      'the sandbox is the venue: it may share the wire (types, signing, endpoints, params) but never call a venue through the client or its actions',
      { path: '^src/sandbox/' },
      { path: ['^src/venue/client\\.ts$', '^src/venue/actions/'] },
    ),
    forbid('src-not-to-test-or-bench', 'src/ never imports test/ or bench/', { path: '^src/' }, { path: '^(test|bench)/' }),
    forbid(
      'strategies-only-public-api',
      `an example strategy imports only the author's API (${STRATEGY_AUTHOR_API.join(', ')}) and packages`,
      { path: '^strategies/' },
      { path: '^(src|test|bench|strategies|bin)/', pathNot: STRATEGY_AUTHOR_API },
    ),
    forbid(
      'templates-only-public-api',
      `what \`clobot init\` and \`clobot new-strategy\` write imports only the author's API (${STRATEGY_AUTHOR_API.join(', ')}), packages and itself`,
      { path: '^templates/' },
      { path: '^(src|test|bench|strategies|bin)/', pathNot: STRATEGY_AUTHOR_API },
    ),
    forbid(
      'not-to-unresolvable',
      'an import that resolves to no file or package',
      // the project template's test imports the strategy `clobot init` writes beside it
      // (templates/strategy.ts as strategies/quoter.ts): there only once the project is written
      { pathNot: '^templates/project/test/quoter\\.test\\.ts$' },
      { couldNotResolve: true },
    ),
    forbid(
      'template-test-imports-written-strategy',
      'the project template\'s test may leave unresolved only the strategy `clobot init` writes',
      { path: '^templates/project/test/quoter\\.test\\.ts$' },
      { couldNotResolve: true, pathNot: '^\\.\\./strategies/quoter\\.ts$' },
    ),
    forbid(
      'src-not-to-dev-dep',
      'src/ runs in production: it may not need a devDependency at run time',
      { path: '^src/' },
      { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
