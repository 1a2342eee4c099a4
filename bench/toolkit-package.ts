// What @pmdesk/toolkit costs a user: the packed tarball (size, unpacked size, files), a browser app's bundle
// when it imports the CLOB client and a market source (minified and gzipped, dependencies included), and the
// time `import`/`require` of the package takes in a fresh Node process (median of BENCH_ROUNDS, 7 by default).
// Builds the package first. No pass/fail: the numbers are for the package README.
// Run: node --import tsx bench/toolkit-package.ts
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { buildPackage } from '../packages/toolkit/build/build.mjs';

const run = promisify(execFile);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PACKAGE_DIR = resolve(import.meta.dirname, '../packages/toolkit');
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function tarball(): Promise<{ size: number; unpackedSize: number; entryCount: number }> {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error'], {
    cwd: PACKAGE_DIR,
  });
  return (JSON.parse(stdout) as { size: number; unpackedSize: number; entryCount: number }[])[0]!;
}

/** A browser app that reads markets and trades, bundled as a user's bundler would (tree-shaken, minified). */
async function browserBundle(): Promise<{ min: number; gzip: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'toolkit-bundle-'));
  try {
    const entry = join(dir, 'app.js');
    writeFileSync(
      entry,
      `import { ClobClient, createMarketSource, privateKeySigner } from '${join(PACKAGE_DIR, 'dist/esm/index.js')}';\n` +
        'globalThis.app = { ClobClient, createMarketSource, privateKeySigner };\n',
    );
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
      nodePaths: [resolve(PACKAGE_DIR, '../../node_modules')],
    });
    const code = result.outputFiles[0]!.contents;
    return { min: code.byteLength, gzip: gzipSync(code).byteLength };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Milliseconds from before the import to after it, measured inside a fresh process. */
async function importMs(kind: 'esm' | 'cjs'): Promise<number> {
  const target = join(PACKAGE_DIR, kind === 'esm' ? 'dist/esm/index.js' : 'dist/cjs/index.js');
  const code =
    kind === 'esm'
      ? `const t = performance.now(); await import(${JSON.stringify(target)}); console.log(performance.now() - t);`
      : `const t = performance.now(); require(${JSON.stringify(target)}); console.log(performance.now() - t);`;
  const args = kind === 'esm' ? ['--input-type=module', '-e', code] : ['-e', code];
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) samples.push(Number((await run(process.execPath, args)).stdout.trim()));
  return median(samples);
}

await buildPackage();
const pack = await tarball();
const bundle = await browserBundle();
const esm = await importMs('esm');
const cjs = await importMs('cjs');
console.log('@pmdesk/toolkit');
console.log(
  `  tarball                 ${kb(pack.size)} (${kb(pack.unpackedSize)} unpacked, ${pack.entryCount} files; most of it source maps)`,
);
console.log(
  `  browser app bundle      ${kb(bundle.min)} minified, ${kb(bundle.gzip)} gzipped (ClobClient + createMarketSource + privateKeySigner, with ethers, zod, eventsource)`,
);
console.log(
  `  import time (Node ${process.versions.node})  ESM ${esm.toFixed(0)} ms, CommonJS ${cjs.toFixed(0)} ms (median of ${ROUNDS} fresh processes)`,
);
