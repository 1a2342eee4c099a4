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

/**
 * The folders of src/main, lowest first, each with the folders it may import: a folder imports only folders
 * placed before it, so no two folders import each other. A folder not listed here is refused by lint (see
 * `placedFolders` below) until it is placed: a new capability decides where it sits before it grows.
 */
export const MAIN_FOLDERS = [
  // The market WebSocket, the user feed, the tape, coalescing and scheduling: below everything.
  ['feeds', []],
  // The router, the event hub and the handlers table, which names each service by the small interface it calls.
  ['ipc', ['feeds']],
  ['wallets', ['ipc']],
  ['credentials', ['wallets']],
  // Settings, networks and profiles.
  ['settings', ['wallets']],
  // The order flow and what guards it: trading and money access, region checks, dead-man switches, unasked cancels.
  ['trading', ['feeds', 'ipc', 'wallets', 'credentials', 'settings']],
  // Followed books, fills, accounts and market states, behind one reference-counted follower.
  ['follow', ['feeds', 'ipc', 'trading']],
  // What alerts and stops both watch.
  ['watch', ['ipc', 'wallets', 'follow']],
  ['alerts', ['ipc', 'watch']],
  ['stops', ['ipc', 'watch']],
  // Puts the services together for either shell.
  ['terminal', ['feeds', 'ipc', 'wallets', 'credentials', 'settings', 'trading', 'follow', 'alerts', 'stops']],
  // The shells: browser mode's server, and Electron's app (the only one that may import electron).
  ['host', ['ipc', 'wallets', 'credentials', 'settings', 'terminal']],
  ['app', ['ipc', 'wallets', 'credentials', 'settings', 'alerts', 'terminal', 'host']],
];

/** One boundary a folder of src/main: the folders placed after it or not allowed to it are refused. */
function mainFolderBoundaries() {
  const names = MAIN_FOLDERS.map(([name]) => name);
  return MAIN_FOLDERS.map(([name, allowed], at) => {
    const late = allowed.find((other) => names.indexOf(other) < 0 || names.indexOf(other) >= at);
    if (late) throw new Error(`eslint.config.js: src/main/${name} may import only folders placed before it, not ${late}.`);
    const refused = names.filter((other) => other !== name && !allowed.includes(other));
    const message = `src/main/${name} may import only ${allowed.length ? allowed.map((a) => `src/main/${a}`).join(', ') : 'no other folder of src/main'} (eslint.config.js MAIN_FOLDERS): move the code, or pass what it needs in.`;
    const outside = layer(['renderer', 'preload', 'sandbox', ...(name === 'app' ? [] : ['app'])], 'Services never import the renderer, the preload or the sandbox; only src/main/app is Electron glue.');
    return {
      files: [`src/main/${name}/**`],
      patterns: [
        ...(name === 'app' ? [] : [electron]),
        outside,
        ...(refused.length ? [{ regex: `^(\\.\\.\\/)+(main\\/)?(${refused.join('|')})(\\/|$)`, message }] : []),
        ...toolkitInternals,
      ],
    };
  });
}

/** Refuses every file of a src/main folder that MAIN_FOLDERS does not place (and any file straight in src/main). */
const placedFolders = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const path = context.filename.split('\\').join('/');
    const at = path.lastIndexOf('/src/main/');
    const inMain = at >= 0 ? path.slice(at + '/src/main/'.length) : path.startsWith('src/main/') ? path.slice('src/main/'.length) : undefined;
    if (inMain === undefined) return {};
    const folder = inMain.includes('/') ? inMain.split('/')[0] : undefined;
    if (folder && MAIN_FOLDERS.some(([name]) => name === folder)) return {};
    return {
      Program(node) {
        context.report({
          node,
          message: folder
            ? `src/main/${folder} is not placed: add it to MAIN_FOLDERS in eslint.config.js with the folders it may import.`
            : 'src/main keeps its files in folders placed in MAIN_FOLDERS (eslint.config.js).',
        });
      },
    };
  },
};

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
      { ...nodeBuiltins, message: 'The toolkit runs in browsers too: reach Node only through src/base/platform.ts (process.getBuiltinModule).' },
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
  { files: ['src/cli/**'], patterns: [electron, layer(['renderer', 'preload', 'app', 'sandbox'], 'The CLI never imports the Electron glue, the renderer or the sandbox.'), ...toolkitInternals] },
  ...mainFolderBoundaries(),
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
  { files: ['bench/**', 'scripts/**', 'examples/**'], patterns: [...toolkitInternals] },
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
  { files: ['src/main/**'], plugins: { pmdesk: { rules: { 'placed-folders': placedFolders } } }, rules: { 'pmdesk/placed-folders': 'error' } },
  ...boundaries.map(({ files, patterns }) => ({
    files,
    rules: { '@typescript-eslint/no-restricted-imports': 'off', 'no-restricted-imports': ['error', { patterns }] },
  })),
);
