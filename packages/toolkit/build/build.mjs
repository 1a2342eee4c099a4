// Builds the published package into dist/: an ESM bundle per public entry (shared chunks, so one PmDeskError
// class whichever entry a program imports), CommonJS file by file, .d.ts from tsc, source maps for all. Runs
// on `npm pack` / `npm publish` (prepack) and in tests/integration/toolkit-package.test.ts; about two seconds.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENTRIES } from './source-entries.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const require = createRequire(import.meta.url);

function filesUnder(dir, suffix) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, suffix) : path.endsWith(suffix) ? [path] : [];
  });
}

/** The ESM name of each entry: `.` → index, `./model` → model, `./aggregator-wire` → aggregator-wire. */
const esmEntries = Object.fromEntries(
  Object.entries(ENTRIES).map(([subpath, file]) => [subpath === '.' ? 'index' : subpath.slice(2), join(root, file)]),
);

export async function buildPackage() {
  rmSync(dist, { recursive: true, force: true });
  const common = { sourcemap: true, target: 'es2022', logLevel: 'warning', legalComments: 'none' };
  // ESM: runs in browsers and Node alike; dependencies stay imports for the user's bundler or Node to resolve.
  await build({
    ...common,
    entryPoints: esmEntries,
    outdir: join(dist, 'esm'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    packages: 'external',
    chunkNames: 'chunks/[name]-[hash]',
  });
  // CommonJS for require(): each module on its own, so `require('./x')` resolves as Node resolves it. The
  // optional native packages are found from the module's own file.
  await build({
    ...common,
    entryPoints: filesUnder(join(root, 'src'), '.ts'),
    outbase: join(root, 'src'),
    outdir: join(dist, 'cjs'),
    format: 'cjs',
    platform: 'neutral',
    define: { 'import.meta.url': '__filename' },
  });
  writeFileSync(join(dist, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
  // Declarations from the package's own tsconfig (DOM, no Node types), then relative specifiers made explicit
  // (`./x.js`, `./dir/index.js`) so TypeScript's node16/nodenext resolution reads them as it reads the code.
  const tsc = require.resolve('typescript/bin/tsc');
  execFileSync(
    process.execPath,
    [
      tsc,
      '-p',
      join(root, 'tsconfig.json'),
      '--noEmit',
      'false',
      '--declaration',
      '--emitDeclarationOnly',
      '--outDir',
      join(dist, 'types'),
    ],
    { stdio: ['ignore', 2, 2] },
  );
  for (const file of filesUnder(join(dist, 'types'), '.d.ts')) {
    const text = readFileSync(file, 'utf8').replace(/(from |import\()'(\.\.?\/[^']*)'/g, (_m, lead, spec) => {
      const base = join(dirname(file), spec);
      const target = existsSync(`${base}.d.ts`)
        ? `${spec}.js`
        : existsSync(join(base, 'index.d.ts'))
          ? `${spec}/index.js`
          : spec;
      return `${lead}'${target}'`;
    });
    writeFileSync(file, text);
  }
  // The same declarations beside the CommonJS code, where the package.json above makes them CommonJS types.
  cpSync(join(dist, 'types'), join(dist, 'cjs'), { recursive: true });
  mkdirSync(dist, { recursive: true });
  return relative(process.cwd(), dist);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = await buildPackage();
  // stderr: npm pack --json prints its answer on stdout.
  console.error(`built ${out}`);
}
