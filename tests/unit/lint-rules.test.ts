// The lint's habits that are not import boundaries bite: a promise left floating in shipped code, its tools or
// its tests (type-aware, so it knows what returns a promise) and a broken rule of React hooks in the page fail `npm run lint`.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

/**
 * Type-aware rules need a file their project knows, so each snippet is linted as the text of an existing file
 * (the file on disk is not read or changed).
 */
const IN = {
  shared: 'src/shared/words.ts',
  renderer: 'src/renderer/src/main.tsx',
  toolkit: 'packages/toolkit/src/index.ts',
  sandbox: 'sandbox/cli.ts',
  bin: 'bin/pmdesk.mjs',
  tests: 'tests/unit/errors.test.ts',
  bench: 'bench/run.ts',
} as const;

async function ruleErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

const later = 'async function later() { return 1; }\n';
const laterTs = 'async function later(): Promise<number> { return 1; }\n';

describe('lint rules', { timeout: 180_000 }, () => {
  it('a promise nobody awaits, catches or marks `void` fails lint, in every linted part', async () => {
    for (const file of [IN.shared, IN.renderer, IN.toolkit, IN.sandbox, IN.tests, IN.bench]) {
      expect(await ruleErrors(file, `${laterTs}export function go(): void {\n  later();\n}\n`)).toEqual([
        expect.stringMatching(/^@typescript-eslint\/no-floating-promises/),
      ]);
    }
    expect(await ruleErrors(IN.bin, `${later}export function go() {\n  later();\n}\n`)).toEqual([
      expect.stringMatching(/^@typescript-eslint\/no-floating-promises/),
    ]);
  });

  it('an awaited, caught or `void` promise passes', async () => {
    const code = `${laterTs}export async function go(report: (e: unknown) => void): Promise<void> {\n  await later();\n  later().catch(report);\n  void later();\n}\n`;
    expect(await ruleErrors(IN.toolkit, code)).toEqual([]);
  });

  it('an async function where a callback must return nothing fails lint', async () => {
    const code = `${laterTs}export function go(): void {\n  setTimeout(async () => {\n    await later();\n  }, 10);\n}\n`;
    expect(await ruleErrors(IN.toolkit, code)).toEqual([
      expect.stringMatching(/^@typescript-eslint\/no-misused-promises/),
    ]);
  });

  it('a hook called conditionally, or an effect that does not list what it reads, fails lint in the page', async () => {
    const conditional =
      "import { useState } from 'react';\nexport function Panel({ open }: { open: boolean }) {\n  if (open) {\n    const [n] = useState(0);\n    return n;\n  }\n  return null;\n}\n";
    expect(await ruleErrors(IN.renderer, conditional)).toEqual([expect.stringMatching(/^react-hooks\/rules-of-hooks/)]);
    const missing =
      "import { useEffect } from 'react';\nexport function Panel({ id }: { id: string }) {\n  useEffect(() => {\n    document.title = id;\n  }, []);\n  return null;\n}\n";
    expect(await ruleErrors(IN.renderer, missing)).toEqual([expect.stringMatching(/^react-hooks\/exhaustive-deps/)]);
    const listed = missing.replace('}, []);', '}, [id]);');
    expect(await ruleErrors(IN.renderer, listed)).toEqual([]);
  });
});
