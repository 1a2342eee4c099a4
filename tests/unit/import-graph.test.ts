// No import circles in the house: between files of src/ and packages/toolkit/src, between the folders of
// src/main, of the toolkit and of the page (every folder, its root files included), and between the layers of
// src (scripts/import-graph.ts reads the graph).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { circles, folderGraph, readImportGraph, type ImportGraph } from '../../scripts/import-graph';

const graph = readImportGraph(process.cwd());

/** The graph between the folders under `prefix`, each named by its first folder there. */
function graphUnder(of: ImportGraph, prefix: string): Map<string, Set<string>> {
  const top = (path: string) => path.slice(prefix.length).split('/')[0]!;
  const out = new Map<string, Set<string>>();
  for (const [folder, targets] of folderGraph(of)) {
    if (!folder.startsWith(prefix)) continue;
    const edges = out.get(top(folder)) ?? out.set(top(folder), new Set()).get(top(folder))!;
    for (const target of targets) if (target.startsWith(prefix) && top(target) !== top(folder)) edges.add(top(target));
  }
  return out;
}

describe('the import graph', () => {
  it('reads the whole house', () => {
    expect(graph.files.size).toBeGreaterThan(200);
    expect(graph.files.get('src/main/ipc/router.ts')).toContain('src/shared/contract/index.ts');
  });

  it('has no circle between files', () => {
    expect(circles(graph.files)).toEqual([]);
  });

  it('has no circle between the folders of src/main', () => {
    const folders = graphUnder(graph, 'src/main/');
    expect(folders.size).toBeGreaterThan(10);
    expect(circles(folders)).toEqual([]);
  });

  it.each(['packages/toolkit/src', 'src/renderer/src'])(
    'has no circle between the folders of %s, at any depth',
    (base) => {
      const inside = (folder: string) => folder === base || folder.startsWith(`${base}/`);
      const folders = new Map<string, Set<string>>();
      for (const [folder, targets] of folderGraph(graph))
        if (inside(folder)) folders.set(folder, new Set([...targets].filter(inside)));
      expect(folders.size).toBeGreaterThan(8);
      expect(circles(folders)).toEqual([]);
    },
  );

  it('has no circle between the layers of src', () => {
    expect(circles(graphUnder(graph, 'src/'))).toEqual([]);
  });
});

describe('the import-graph checker', () => {
  const root = mkdtempSync(join(tmpdir(), 'pmdesk-graph-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  it('finds a circle between files, type imports and re-exports included, and the folder circle it makes', () => {
    write('src/a/one.ts', "import type { Two } from '../b/two';\nexport type One = Two;\n");
    write('src/b/two.ts', "export { three } from './three';\nexport type Two = string;\n");
    write('src/b/three.ts', "import {\n  one,\n} from '../a/one.js';\nexport const three = one;\n");
    write('src/c/alone.ts', "import { three } from '../b/three';\nexport const alone = three;\n");
    const fixture = readImportGraph(root, ['src']);
    expect(circles(fixture.files)).toEqual([['src/a/one.ts', 'src/b/three.ts', 'src/b/two.ts']]);
    expect(circles(folderGraph(fixture))).toEqual([['src/a', 'src/b']]);
  });
});
