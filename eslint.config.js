// Lint rules, and the import boundaries of docs/architecture.md#import-rules made executable:
// each layer lists what it must never import, so a renderer file reaching into src/main fails `npm run lint`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { builtinModules } from 'node:module';

const nodeBuiltins = {
  regex: `^(node:.*|${builtinModules.filter((m) => !m.startsWith('_')).map((m) => m.replace(/[/]/g, '\\/')).join('|')})(\\/.*)?$`,
  message: 'This layer runs without Node: use src/shared or a browser API.',
};
const electron = { regex: '^electron(\\/.*)?$', message: 'Only src/main/app and src/preload may import electron.' };
const layer = (names, message) => ({ regex: `(^|\\/)(${names.join('|')})(\\/|$)`, message });
/** Outside packages/toolkit, the toolkit is reached only by its published entries (its package.json `exports`). */
const toolkitInternals = [
  {
    regex: '^@pmdesk\\/toolkit\\/(?!(model|aggregator-wire)$)',
    message: 'Import @pmdesk/toolkit, @pmdesk/toolkit/model or @pmdesk/toolkit/aggregator-wire: the rest of the package is private.',
  },
  { regex: '(^|\\/)packages\\/toolkit(\\/(?!build\\/)|$)', message: 'Import the toolkit by its package name (@pmdesk/toolkit), never by a path into packages/toolkit.' },
];
const react = { regex: '^react(-dom)?(\\/.*)?$', message: 'The toolkit package runs without React.' };

/** What the whole renderer must never import; the narrower renderer entries below repeat it (the last match wins). */
const rendererPatterns = [
  nodeBuiltins,
  electron,
  layer(['main', 'preload', 'cli', 'sandbox'], 'The renderer may import only src/shared and browser libraries; ask main through the contract.'),
  ...toolkitInternals,
];

/** The boundaries, one entry per layer: files, then the imports they must never make. */
const boundaries = [
  {
    files: ['src/shared/**'],
    patterns: [
      nodeBuiltins,
      electron,
      layer(['main', 'renderer', 'preload', 'cli'], 'src/shared imports nothing but itself and @pmdesk/toolkit/model.'),
      { regex: '^@pmdesk\\/toolkit(\\/aggregator-wire)?$', message: 'src/shared is pure: from the toolkit it imports only @pmdesk/toolkit/model.' },
      ...toolkitInternals,
    ],
  },
  { files: ['src/renderer/**'], patterns: rendererPatterns },
  {
    // Inside the page, arrows point down: components use the stores and the page's model, never the other way.
    files: ['src/renderer/src/{store,model,prices,live}/**'],
    patterns: [...rendererPatterns, layer(['components'], 'store/, model/, prices/ and live/ never import components/: move what they need into model/ (or store/).')],
  },
  {
    files: ['src/renderer/src/{model,format}/**'],
    patterns: [
      ...rendererPatterns,
      layer(['components', 'store'], 'model/ and format/ are what the page works out from data, without state: they import neither components/ nor store/.'),
    ],
  },
  {
    files: ['src/preload/**'],
    patterns: [layer(['main', 'renderer', 'cli', 'sandbox'], 'The preload builds window.terminal from src/shared/contract and electron alone.'), ...toolkitInternals],
  },
  {
    files: ['packages/toolkit/src/**'],
    patterns: [
      { ...nodeBuiltins, message: 'The toolkit runs in browsers too: reach Node only through src/platform.ts (process.getBuiltinModule).' },
      electron,
      react,
      { regex: '^@pmdesk\\/', message: 'Inside the package, import its modules by relative path.' },
      layer(['src', 'main', 'wallets', 'credentials', 'trading', 'feeds', 'ipc', 'app', 'host', 'renderer', 'preload', 'cli', 'sandbox'], 'The toolkit package imports only itself and its dependencies.'),
    ],
  },
  {
    files: ['packages/toolkit/src/model/**'],
    patterns: [nodeBuiltins, electron, react, layer(['accounts', 'aggregator', 'chain', 'clob', 'collateral', 'http', 'orders', 'polymarket', 'positions', 'sources'], 'The model is pure: it imports only itself and zod.')],
  },
  {
    files: ['src/main/{wallets,credentials,trading,feeds,ipc,host}/**', 'src/cli/**'],
    patterns: [electron, layer(['renderer', 'preload', 'app', 'sandbox'], 'Services and the CLI never import the Electron glue, the renderer or the sandbox.'), ...toolkitInternals],
  },
  {
    files: ['sandbox/**'],
    patterns: [
      electron,
      {
        regex: '^@pmdesk\\/toolkit$',
        message: 'The sandbox checks signatures with ethers directly, never with the toolkit’s signing or auth code: it takes only @pmdesk/toolkit/model and @pmdesk/toolkit/aggregator-wire.',
      },
      ...toolkitInternals,
      layer(['renderer', 'preload', 'app'], 'The sandbox is a server: it never imports the app.'),
    ],
  },
  { files: ['src/main/app/**', 'bench/**', 'scripts/**', 'examples/**'], patterns: [...toolkitInternals] },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'packages/*/dist/', 'docs/api/', 'coverage/', 'tests/fixtures/lint/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  { files: ['src/renderer/**'], languageOptions: { globals: { ...globals.browser } } },
  // Promises nobody awaits hide their rejections: type-aware, over the code that ships, its tools and its tests.
  {
    files: ['src/**/*.{ts,tsx}', 'packages/toolkit/src/**/*.ts', 'sandbox/**/*.ts', 'bin/**/*.mjs', 'scripts/**/*.mjs', 'tests/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ['bin/*.mjs', 'scripts/*.mjs'] }, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' },
  },
  // The two rules of hooks, as errors: a hook called conditionally, or an effect reading a value it does not list.
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  ...boundaries.map(({ files, patterns }) => ({
    files,
    rules: { '@typescript-eslint/no-restricted-imports': 'off', 'no-restricted-imports': ['error', { patterns }] },
  })),
);
