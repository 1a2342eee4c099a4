// The package's public entries and the source file behind each: the one list the build, the repository's
// aliases (vitest, electron-vite, the CLI bundle) and the exports map are checked against, so an entry added
// here is an entry everywhere.
import { fileURLToPath } from 'node:url';

/** Subpath of the package → its source file, relative to packages/toolkit. */
export const ENTRIES = {
  '.': 'src/index.ts',
  './model': 'src/model/index.ts',
  './aggregator-wire': 'src/model/aggregator.ts',
};

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** Specifier (`@pmdesk/toolkit/model`) → absolute source path: inside the repository the app runs the sources. */
export function sourceAliases() {
  return Object.fromEntries(
    Object.entries(ENTRIES).map(([subpath, file]) => [
      `@pmdesk/toolkit${subpath === '.' ? '' : subpath.slice(1)}`,
      `${packageDir}${file}`,
    ]),
  );
}

/** The same as Vite's alias list: exact matches, so `@pmdesk/toolkit` never swallows `@pmdesk/toolkit/model`. */
export function viteAliases() {
  return Object.entries(sourceAliases()).map(([name, path]) => ({
    find: new RegExp(`^${name.replace(/[/]/g, '\\/')}$`),
    replacement: path,
  }));
}
