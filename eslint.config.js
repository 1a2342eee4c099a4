// Lint rules, and the import boundaries of docs/architecture.md#import-rules made executable:
// each layer lists what it must never import, so a renderer file reaching into src/main fails `npm run lint`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { builtinModules } from 'node:module';

const nodeBuiltins = {
  regex: `^(node:.*|${builtinModules
    .filter((m) => !m.startsWith('_'))
    .map((m) => m.replace(/[/]/g, '\\/'))
    .join('|')})(\\/.*)?$`,
  message: 'This layer runs without Node: use src/shared or a browser API.',
};
const electron = { regex: '^electron(\\/.*)?$', message: 'Only src/main/app and src/preload may import electron.' };
const layer = (names, message) => ({ regex: `(^|\\/)(${names.join('|')})(\\/|$)`, message });
/** Outside packages/toolkit, the toolkit is reached only by its published entries (its package.json `exports`). */
const toolkitInternals = [
  {
    regex: '^@pmdesk\\/toolkit\\/(?!(model|aggregator-wire)$)',
    message:
      'Import @pmdesk/toolkit, @pmdesk/toolkit/model or @pmdesk/toolkit/aggregator-wire: the rest of the package is private.',
  },
  {
    regex: '(^|\\/)packages\\/toolkit(\\/(?!build\\/)|$)',
    message: 'Import the toolkit by its package name (@pmdesk/toolkit), never by a path into packages/toolkit.',
  },
];
const react = { regex: '^react(-dom)?(\\/.*)?$', message: 'The toolkit package runs without React.' };
/** What no file of the toolkit package may import. */
const toolkitPatterns = [
  {
    ...nodeBuiltins,
    message:
      'The toolkit runs in browsers too: reach Node only through src/base/platform.ts (process.getBuiltinModule).',
  },
  electron,
  react,
  { regex: '^@pmdesk\\/', message: 'Inside the package, import its modules by relative path.' },
  layer(
    [
      'src',
      'main',
      'wallets',
      'credentials',
      'trading',
      'feeds',
      'ipc',
      'app',
      'host',
      'renderer',
      'preload',
      'cli',
      'sandbox',
    ],
    'The toolkit package imports only itself and its dependencies.',
  ),
];

/** What the whole renderer must never import; the narrower renderer entries below repeat it (the last match wins). */
const rendererPatterns = [
  nodeBuiltins,
  electron,
  layer(
    ['main', 'preload', 'cli', 'sandbox'],
    'The renderer may import only src/shared and browser libraries; ask main through the contract.',
  ),
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
  // Other traders: the leaderboard, holders and followed traders.
  ['traders', ['ipc', 'settings', 'alerts']],
  // Puts the services together for either shell.
  // The Portfolio view's service: an account's book from the ledger, kept a short while, and its CSV export.
  ['portfolio', ['ipc']],
  [
    'terminal',
    [
      'feeds',
      'ipc',
      'wallets',
      'credentials',
      'settings',
      'trading',
      'follow',
      'alerts',
      'stops',
      'traders',
      'portfolio',
    ],
  ],
  // The shells: browser mode's server, and Electron's app (the only one that may import electron).
  ['host', ['ipc', 'wallets', 'credentials', 'settings', 'terminal']],
  ['app', ['ipc', 'wallets', 'credentials', 'settings', 'alerts', 'terminal', 'host']],
];

/**
 * The toolkit package's folders, lowest first, in the same form as MAIN_FOLDERS: the pure model, the runtime
 * helpers, HTTP, the chain's addresses, order building, accounts and their money actions, then the clients
 * that use them; `index.ts` at the root exports them all and nothing imports it back.
 */
export const TOOLKIT_FOLDERS = [
  ['model', []],
  // Byte helpers, the logger interface and the one way to Node (platform.ts).
  ['base', []],
  ['http', ['model', 'base']],
  // Networks, contract addresses of wallets and receipts.
  ['chain', ['model', 'base']],
  ['orders', ['model', 'base', 'chain']],
  ['accounts', ['model', 'base', 'chain', 'orders']],
  ['collateral', ['model', 'base', 'chain', 'orders', 'accounts']],
  ['positions', ['model', 'base', 'chain', 'orders', 'accounts', 'collateral']],
  ['clob', ['model', 'base', 'http', 'chain', 'orders']],
  ['aggregator', ['model', 'base', 'http']],
  ['polymarket', ['model', 'base', 'http', 'chain', 'clob']],
  // The choice between the two market sources.
  ['sources', ['model', 'base', 'http', 'aggregator', 'polymarket']],
  ['relayer', ['model', 'base', 'http', 'chain', 'orders', 'accounts', 'clob', 'polymarket']],
  ['portfolio', ['model', 'base']],
];

/**
 * The page's folders, lowest first: number formats, the key table and the bridge to main below the pure model;
 * then the live frame, the stores, the price hooks and the components. `main.tsx` at the root puts them together.
 */
export const RENDERER_FOLDERS = [
  ['format', []],
  ['keys', []],
  // `window.terminal`: ask(op, input), and browser mode's bridge over the host's WebSocket.
  ['bridge', []],
  // What the page works out from data, without state.
  ['model', ['format']],
  ['live', ['format', 'bridge', 'model']],
  ['store', ['format', 'bridge', 'model', 'live']],
  // The price model's hooks and its one rendering.
  ['prices', ['format', 'model', 'store']],
  ['components', ['format', 'keys', 'bridge', 'model', 'live', 'store', 'prices']],
];

/**
 * Where the placed folders are: the folder list, the files allowed straight in the base (its entries), and
 * what each folder's file must never import besides the folders it may not (the last lint entry wins).
 */
const PLACES = [
  {
    base: 'src/main',
    list: 'MAIN_FOLDERS',
    folders: MAIN_FOLDERS,
    rootFiles: [],
    patterns: (name) => mainPatterns(name),
  },
  {
    base: 'packages/toolkit/src',
    list: 'TOOLKIT_FOLDERS',
    folders: TOOLKIT_FOLDERS,
    rootFiles: ['index.ts'],
    patterns: () => toolkitPatterns,
  },
  {
    base: 'src/renderer/src',
    list: 'RENDERER_FOLDERS',
    folders: RENDERER_FOLDERS,
    rootFiles: ['main.tsx', 'env.d.ts'],
    patterns: () => rendererPatterns,
  },
];

function mainPatterns(name) {
  const outside = layer(
    ['renderer', 'preload', 'sandbox', ...(name === 'app' ? [] : ['app'])],
    'Services never import the renderer, the preload or the sandbox; only src/main/app is Electron glue.',
  );
  return [...(name === 'app' ? [] : [electron]), outside, ...toolkitInternals];
}

/** One boundary per placed folder: the folders placed after it, or not allowed to it, are refused. */
function folderBoundaries({ base, list, folders, patterns }) {
  const names = folders.map(([name]) => name);
  const last = base.split('/').at(-1);
  return folders.map(([name, allowed], at) => {
    const late = allowed.find((other) => names.indexOf(other) < 0 || names.indexOf(other) >= at);
    if (late)
      throw new Error(`eslint.config.js: ${base}/${name} may import only folders placed before it, not ${late}.`);
    const refused = names.filter((other) => other !== name && !allowed.includes(other));
    const message = `${base}/${name} may import only ${allowed.length ? allowed.map((a) => `${base}/${a}`).join(', ') : `no other folder of ${base}`} (eslint.config.js ${list}): move the code, or pass what it needs in.`;
    return {
      files: [`${base}/${name}/**`],
      patterns: [
        ...patterns(name),
        ...(refused.length ? [{ regex: `^(\\.\\.\\/)+(${last}\\/)?(${refused.join('|')})(\\/|$)`, message }] : []),
      ],
    };
  });
}

/** Refuses every file of a folder that its list does not place (and any file straight in the base but its entries). */
const placedFolders = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const path = context.filename.split('\\').join('/');
    for (const { base, list, folders, rootFiles } of PLACES) {
      const at = path.lastIndexOf(`/${base}/`);
      const inBase =
        at >= 0
          ? path.slice(at + base.length + 2)
          : path.startsWith(`${base}/`)
            ? path.slice(base.length + 1)
            : undefined;
      if (inBase === undefined) continue;
      const folder = inBase.includes('/') ? inBase.split('/')[0] : undefined;
      if (folder ? folders.some(([name]) => name === folder) : rootFiles.includes(inBase)) return {};
      return {
        Program(node) {
          context.report({
            node,
            message: folder
              ? `${base}/${folder} is not placed: add it to ${list} in eslint.config.js with the folders it may import.`
              : `${base} keeps its files in folders placed in ${list} (eslint.config.js)${rootFiles.length ? `, beside ${rootFiles.join(' and ')}` : ''}.`,
          });
        },
      };
    }
    return {};
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
      {
        regex: '^@pmdesk\\/toolkit(\\/aggregator-wire)?$',
        message: 'src/shared is pure: from the toolkit it imports only @pmdesk/toolkit/model.',
      },
      ...toolkitInternals,
    ],
  },
  { files: ['src/renderer/**'], patterns: rendererPatterns },
  {
    files: ['src/preload/**'],
    patterns: [
      layer(
        ['main', 'renderer', 'cli', 'sandbox'],
        'The preload builds window.terminal from src/shared/contract and electron alone.',
      ),
      ...toolkitInternals,
    ],
  },
  // The package's root (its entry, index.ts); its folders get these and their place in TOOLKIT_FOLDERS.
  { files: ['packages/toolkit/src/**'], patterns: toolkitPatterns },
  {
    files: ['src/cli/**'],
    patterns: [
      electron,
      layer(
        ['renderer', 'preload', 'app', 'sandbox'],
        'The CLI never imports the Electron glue, the renderer or the sandbox.',
      ),
      ...toolkitInternals,
    ],
  },
  ...PLACES.flatMap(folderBoundaries),
  {
    files: ['sandbox/**'],
    patterns: [
      electron,
      {
        regex: '^@pmdesk\\/toolkit$',
        message:
          'The sandbox checks signatures with ethers directly, never with the toolkit’s signing or auth code: it takes only @pmdesk/toolkit/model and @pmdesk/toolkit/aggregator-wire.',
      },
      ...toolkitInternals,
      layer(['renderer', 'preload', 'app'], 'The sandbox is a server: it never imports the app.'),
    ],
  },
  { files: ['bench/**', 'scripts/**', 'examples/**'], patterns: [...toolkitInternals] },
];

export default tseslint.config(
  {
    ignores: ['node_modules/', 'out/', 'dist/', 'packages/*/dist/', 'docs/api/', 'coverage/', 'tests/fixtures/lint/**'],
  },
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
    files: [
      'src/**/*.{ts,tsx}',
      'packages/toolkit/src/**/*.ts',
      'sandbox/**/*.ts',
      'bin/**/*.mjs',
      'scripts/**/*.mjs',
      'tests/**/*.ts',
      'bench/**/*.ts',
    ],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['bin/*.mjs', 'scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' },
  },
  // The two rules of hooks, as errors: a hook called conditionally, or an effect reading a value it does not list.
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['src/main/**', 'packages/toolkit/src/**', 'src/renderer/src/**'],
    plugins: { pmdesk: { rules: { 'placed-folders': placedFolders } } },
    rules: { 'pmdesk/placed-folders': 'error' },
  },
  ...boundaries.map(({ files, patterns }) => ({
    files,
    rules: { '@typescript-eslint/no-restricted-imports': 'off', 'no-restricted-imports': ['error', { patterns }] },
  })),
);
