// ESLint for clobot (issue 11, point 7): typescript-eslint's type-checked recommended rules over
// the TypeScript of src/, test/, bench/, strategies/ and the strategy template, the JavaScript
// recommended rules over the few .mjs launchers and workers, and the recommended rules without
// types over the project template's test (issue 20 point 7). `npm run lint` runs dependency-cruiser first, then this.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The Node globals the .mjs files use (they are plain ESM run by Node, no type information).
const NODE_GLOBALS = {
  process: 'readonly',
  console: 'readonly',
  URL: 'readonly',
  Buffer: 'readonly',
  setTimeout: 'readonly',
  clearTimeout: 'readonly',
  setInterval: 'readonly',
  clearInterval: 'readonly',
  setImmediate: 'readonly',
  queueMicrotask: 'readonly',
  performance: 'readonly',
  TextEncoder: 'readonly',
  TextDecoder: 'readonly',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'coverage/', '**/*.d.ts'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'strategies/**/*.ts', 'templates/strategy.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore marks a parameter or binding kept on purpose (an interface's
      // signature, a destructured field left out); anything else unused is a mistake.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read JSON payloads from the sandbox and the venue (`await res.json()` is `any`) and
    // assert on their fields (`call<any[]>`); typing every payload adds nothing the assertions miss.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The project `clobot init` writes: its test imports the strategy init writes beside it
    // (templates/strategy.ts as strategies/quoter.ts), which is not there in this repository, so
    // it is linted without type information; test/package/pack.test.ts type-checks the written project.
    files: ['templates/project/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    // the dashboard's script (src/control/dashboard/), run by the browser as a classic script
    files: ['src/control/dashboard/**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(
        ['window', 'document', 'location', 'history', 'sessionStorage', 'fetch', 'WebSocket', 'setTimeout', 'console', 'CSS', 'LightweightCharts'].map((g) => [g, 'readonly']),
      ),
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['src/**/*.mjs', 'bin/**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'module', globals: NODE_GLOBALS },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
);
