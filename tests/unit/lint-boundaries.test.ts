// The import boundaries of ARCHITECTURE §3 are lint rules; these prove the rules bite.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', () => {
  it('a renderer file importing from src/main fails lint', async () => {
    const errors = await boundaryErrors('src/renderer/src/panel.ts', "import { AggregatorClient } from '../../main/toolkit';\nexport const c = AggregatorClient;\n");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/renderer may import only src\/shared/);
  });

  it('the renderer may not import Node built-ins or electron', async () => {
    expect(await boundaryErrors('src/renderer/src/a.ts', "import { readFile } from 'node:fs';\nexport const r = readFile;\n")).toHaveLength(1);
    expect(await boundaryErrors('src/renderer/src/a.ts', "import { ipcRenderer } from 'electron';\nexport const r = ipcRenderer;\n")).toHaveLength(1);
  });

  it('the renderer may import src/shared', async () => {
    expect(await boundaryErrors('src/renderer/src/a.ts', "import { ErrorCode } from '../../shared/errors';\nexport const c = ErrorCode;\n")).toEqual([]);
  });

  it('src/shared imports neither Node nor any other layer', async () => {
    expect(await boundaryErrors('src/shared/x.ts', "import { join } from 'path';\nexport const j = join;\n")).toHaveLength(1);
    expect(await boundaryErrors('src/shared/x.ts', "import { AggregatorClient } from '../main/toolkit';\nexport const c = AggregatorClient;\n")).toHaveLength(1);
  });

  it('the toolkit never imports electron or the services above it', async () => {
    expect(await boundaryErrors('src/main/toolkit/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
    expect(await boundaryErrors('src/main/toolkit/x.ts', "import { w } from '../wallets/store';\nexport const a = w;\n")).toHaveLength(1);
    expect(await boundaryErrors('src/main/toolkit/x.ts', "import { readFile } from 'node:fs';\nexport const r = readFile;\n")).toEqual([]);
  });

  it('the preload imports only electron and src/shared', async () => {
    expect(await boundaryErrors('src/preload/x.ts', "import { AggregatorClient } from '../main/toolkit';\nexport const a = AggregatorClient;\n")).toHaveLength(1);
    expect(await boundaryErrors('src/preload/x.ts', "import { contextBridge } from 'electron';\nimport { ErrorCode } from '../shared/errors';\nexport const a = [contextBridge, ErrorCode];\n")).toEqual([]);
  });

  it('services and the CLI never import electron', async () => {
    expect(await boundaryErrors('src/main/trading/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
    expect(await boundaryErrors('src/cli/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
  });

  it('the sandbox never imports the toolkit signing or auth code', async () => {
    expect(await boundaryErrors('sandbox/clob/x.ts', "import { s } from '../../src/main/toolkit/orders/sign';\nexport const a = s;\n")).toHaveLength(1);
    expect(await boundaryErrors('sandbox/clob/x.ts', "import { s } from '../../src/main/toolkit/clob/auth';\nexport const a = s;\n")).toHaveLength(1);
    expect(await boundaryErrors('sandbox/sim/x.ts', "import { verifyL1 } from '../clob/auth';\nexport const a = verifyL1;\n")).toEqual([]);
  });
});
