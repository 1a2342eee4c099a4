// Bundles the `pmdesk` CLI (src/cli) into out/cli/pmdesk.mjs with esbuild; packages stay external. The
// signer worker is its own entry (out/cli/signer-worker.mjs): it runs in a worker thread beside the CLI.
// Runs on `npm ci` (prepare) and before the tests, in well under a second.
import { build } from 'esbuild';
import { sourceAliases } from '../packages/toolkit/build/source-entries.mjs';

// The toolkit package is bundled in from its sources; every other package stays external.
const toolkitSources = sourceAliases();
const toolkitPlugin = {
  name: 'pmdesk-toolkit-sources',
  setup(b) {
    b.onResolve({ filter: /^@pmdesk\/toolkit(\/|$)/ }, ({ path }) =>
      toolkitSources[path] ? { path: toolkitSources[path] } : undefined,
    );
  },
};

await build({
  entryPoints: { pmdesk: 'src/cli/main.ts', 'signer-worker': 'src/main/wallets/signer-worker.ts' },
  outdir: 'out/cli',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [toolkitPlugin],
});
