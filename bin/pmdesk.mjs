#!/usr/bin/env node
// `pmdesk`: runs the bundled CLI (built by `npm ci` / `npm run build:cli`), or the TypeScript sources
// through tsx when the bundle has not been built yet.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const bundle = fileURLToPath(new URL('../out/cli/pmdesk.mjs', import.meta.url));
if (existsSync(bundle)) {
  const { main } = await import(pathToFileURL(bundle).href);
  await main(process.argv.slice(2));
} else {
  const { tsImport } = await import('tsx/esm/api');
  const { main } = await tsImport('../src/cli/main.ts', import.meta.url);
  await main(process.argv.slice(2));
}
