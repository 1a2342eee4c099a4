// The house's import graph (relative imports of src/ and packages/toolkit/src, `import type` included) and its
// circles, between files and between folders: the unit tests refuse any, and `node --import tsx
// scripts/import-graph.ts` prints them. A regex over import lines is enough: every import here is static text.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The folders whose files are read (from the repository's root). */
export const GRAPH_ROOTS = ['src', 'packages/toolkit/src'];

const SOURCE = /\.(ts|tsx|mts|mjs)$/;
// `import … from '…'`, `export … from '…'` (across lines), `import '…'` and `import('…')`.
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'";]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*\(?\s*['"]([^'"]+)['"]/gm;

export interface ImportGraph {
  /** Each file (relative to the root, with `/`) and the files it imports. */
  files: Map<string, Set<string>>;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The file a relative specifier names, as TypeScript's bundler resolution finds it; undefined for a package. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|mjs|ts|tsx)$/, '');
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${stem}.mjs`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ];
  return candidates.find(isFile);
}

/** Reads every source file under the roots and the relative imports between them. */
export function readImportGraph(repoRoot: string, roots: readonly string[] = GRAPH_ROOTS): ImportGraph {
  const files = new Map<string, Set<string>>();
  const name = (path: string) => relative(repoRoot, path).split('\\').join('/');
  for (const root of roots) {
    for (const path of sourceFiles(join(repoRoot, root))) {
      const imports = new Set<string>();
      for (const match of readFileSync(path, 'utf8').matchAll(IMPORT)) {
        const target = resolveSpecifier(path, match[1] ?? match[2]!);
        if (target && target !== path) imports.add(name(target));
      }
      files.set(name(path), imports);
    }
  }
  return { files };
}

/** The graph between folders: a folder imports another when one of its files imports one of the other's. */
export function folderGraph(graph: ImportGraph): Map<string, Set<string>> {
  const folders = new Map<string, Set<string>>();
  for (const [file, imports] of graph.files) {
    const from = dirname(file);
    const edges = folders.get(from) ?? folders.set(from, new Set()).get(from)!;
    for (const target of imports) if (dirname(target) !== from) edges.add(dirname(target));
  }
  return folders;
}

/** Every circle of a graph: its strongly connected parts of more than one node (Tarjan), each sorted. */
export function circles(graph: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let top: string;
    do {
      top = stack.pop()!;
      onStack.delete(top);
      part.push(top);
    } while (top !== node);
    if (part.length > 1) found.push(part.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const graph = readImportGraph(process.cwd());
  const fileCircles = circles(graph.files);
  const folderCircles = circles(folderGraph(graph));
  for (const circle of fileCircles) console.log(`files: ${circle.join(' ⇄ ')}`);
  for (const circle of folderCircles) console.log(`folders: ${circle.join(' ⇄ ')}`);
  console.log(`${graph.files.size} files, ${fileCircles.length} file circles, ${folderCircles.length} folder circles`);
  process.exitCode = fileCircles.length + folderCircles.length > 0 ? 1 : 0;
}
