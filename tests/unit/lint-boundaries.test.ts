// The import boundaries are lint rules (eslint.config.js); these prove the rules bite.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// Import boundaries need no type information: the type-aware rules are off here, so a snippet may be linted as a
// file that does not exist (tests/unit/lint-rules.test.ts covers those rules).
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
});

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

async function placementErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'pmdesk/placed-folders').map((m) => m.message);
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

  it("inside the page, store/ and the page's model never import components/", async () => {
    const fromComponents = "import { rowOfMarket } from '../components/markets/rows';\nexport const r = rowOfMarket;\n";
    for (const file of ['src/renderer/src/store/x.ts', 'src/renderer/src/prices/x.ts', 'src/renderer/src/live/x.ts']) {
      expect((await boundaryErrors(file, fromComponents)).join()).toMatch(/never import components\//);
    }
    for (const file of ['src/renderer/src/model/x.ts', 'src/renderer/src/format/x.ts']) {
      expect((await boundaryErrors(file, fromComponents)).join()).toMatch(/neither components\/ nor store\//);
    }
    expect((await boundaryErrors('src/renderer/src/model/x.ts', "import { useMarkets } from '../store/markets';\nexport const m = useMarkets;\n")).join()).toMatch(/neither components\/ nor store\//);
    // The narrower entries keep the whole renderer's rules.
    expect(await boundaryErrors('src/renderer/src/store/x.ts', "import { readFile } from 'node:fs';\nexport const r = readFile;\n")).toHaveLength(1);
    expect(await boundaryErrors('src/renderer/src/model/x.ts', "import { AggregatorClient } from '../../../main/toolkit';\nexport const c = AggregatorClient;\n")).toHaveLength(1);
    // Components use both.
    const down = "import { useMarkets } from '../../store/markets';\nimport { rowOfMarket } from '../../model/market-rows';\nexport const a = [useMarkets, rowOfMarket];\n";
    expect(await boundaryErrors('src/renderer/src/components/markets/x.ts', down)).toEqual([]);
    expect(await boundaryErrors('src/renderer/src/store/x.ts', "import { rowOfMarket } from '../model/market-rows';\nexport const r = rowOfMarket;\n")).toEqual([]);
  });

  it('src/shared imports neither Node nor any other layer', async () => {
    expect(await boundaryErrors('src/shared/x.ts', "import { join } from 'path';\nexport const j = join;\n")).toHaveLength(1);
    expect(await boundaryErrors('src/shared/x.ts', "import { AggregatorClient } from '../main/toolkit';\nexport const c = AggregatorClient;\n")).toHaveLength(1);
  });

  it('the toolkit package never imports electron, React, Node built-ins or the services above it', async () => {
    expect(await boundaryErrors('packages/toolkit/src/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
    expect(await boundaryErrors('packages/toolkit/src/x.ts', "import { w } from '../wallets/store';\nexport const a = w;\n")).toHaveLength(1);
    expect((await boundaryErrors('packages/toolkit/src/x.ts', "import { readFile } from 'node:fs';\nexport const r = readFile;\n")).join()).toMatch(/runs in browsers too/);
    expect(await boundaryErrors('packages/toolkit/src/x.ts', "import { useState } from 'react';\nexport const r = useState;\n")).toHaveLength(1);
  });

  it('outside the package, the toolkit is reached only by its published entries', async () => {
    const ok = "import { ClobClient } from '@pmdesk/toolkit';\nimport { ErrorCode } from '@pmdesk/toolkit/model';\nimport type { Trader } from '@pmdesk/toolkit/aggregator-wire';\nexport const a = [ClobClient, ErrorCode];\nexport type T = Trader;\n";
    for (const file of ['src/main/trading/x.ts', 'src/cli/x.ts', 'src/main/app/x.ts', 'bench/x.ts', 'examples/x.ts']) expect(await boundaryErrors(file, ok)).toEqual([]);
    const deep = "import { OrderBuilder } from '@pmdesk/toolkit/src/orders/builder';\nexport const a = OrderBuilder;\n";
    const byPath = "import { OrderBuilder } from '../../../packages/toolkit/src/orders/builder';\nexport const a = OrderBuilder;\n";
    for (const file of ['src/main/trading/x.ts', 'src/cli/x.ts', 'src/renderer/src/x.ts', 'sandbox/clob/x.ts', 'bench/x.ts', 'examples/x.ts']) {
      expect((await boundaryErrors(file, deep)).join()).toMatch(/the rest of the package is private/);
      expect((await boundaryErrors(file, byPath)).join()).toMatch(/by its package name/);
    }
  });

  it('src/shared takes only the pure model from the toolkit', async () => {
    expect(await boundaryErrors('src/shared/x.ts', "import { ErrorCode } from '@pmdesk/toolkit/model';\nexport const c = ErrorCode;\n")).toEqual([]);
    expect(await boundaryErrors('src/shared/x.ts', "import { ClobClient } from '@pmdesk/toolkit';\nexport const c = ClobClient;\n")).toHaveLength(1);
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
    expect(await boundaryErrors('sandbox/clob/x.ts', "import { signOrder } from '@pmdesk/toolkit';\nexport const a = signOrder;\n")).toHaveLength(1);
    expect(await boundaryErrors('sandbox/clob/x.ts', "import type { TradeRecord } from '@pmdesk/toolkit/aggregator-wire';\nexport type T = TradeRecord;\n")).toEqual([]);
    expect(await boundaryErrors('sandbox/sim/x.ts', "import { verifyL1 } from '../clob/auth';\nexport const a = verifyL1;\n")).toEqual([]);
  });

  it('a folder of src/main imports only the folders placed below it', async () => {
    // Trading sits under following: the order flow never reaches up into the feeds that follow accounts.
    const upward = "import { AccountFeeds } from '../follow/account-feeds';\nexport const a = AccountFeeds;\n";
    expect((await boundaryErrors('src/main/trading/x.ts', upward)).join()).toMatch(/src\/main\/trading may import only/);
    // The handlers table names services by their interfaces: it imports none of the capability folders.
    expect(await boundaryErrors('src/main/ipc/x.ts', "import type { AlertService } from '../alerts/alerts';\nexport type A = AlertService;\n")).toHaveLength(1);
    expect(await boundaryErrors('src/main/alerts/x.ts', "import type { StopService } from '../stops/stops';\nexport type S = StopService;\n")).toHaveLength(1);
    const downward = "import type { EventHub } from '../ipc/event-hub';\nimport { Follower } from '../follow/follower';\nimport { z } from 'zod';\nexport const a = [Follower, z];\nexport type H = EventHub;\n";
    expect(await boundaryErrors('src/main/watch/x.ts', downward)).toEqual([]);
    expect(await boundaryErrors('src/main/follow/x.ts', "import { ErrorCode } from '../../shared/contract';\nexport const c = ErrorCode;\n")).toEqual([]);
  });

  it('only src/main/app may import electron', async () => {
    const code = "import { app } from 'electron';\nexport const a = app;\n";
    for (const folder of ['ipc', 'follow', 'watch', 'alerts', 'stops', 'settings', 'terminal', 'host']) expect(await boundaryErrors(`src/main/${folder}/x.ts`, code)).toHaveLength(1);
    expect(await boundaryErrors('src/main/app/x.ts', code)).toEqual([]);
  });

  it('a folder of src/main that is not placed is refused until it is', async () => {
    const code = 'export const a = 1;\n';
    expect((await placementErrors('src/main/orders2/x.ts', code)).join()).toMatch(/src\/main\/orders2 is not placed/);
    expect(await placementErrors('src/main/loose.ts', code)).toHaveLength(1);
    expect(await placementErrors('src/main/follow/x.ts', code)).toEqual([]);
  });

  it('every folder of src/main is placed', async () => {
    const { MAIN_FOLDERS } = (await import(pathToFileURL(resolve('eslint.config.js')).href)) as { MAIN_FOLDERS: [string, string[]][] };
    const folders = readdirSync('src/main', { withFileTypes: true });
    expect(folders.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)).toEqual([]);
    const placed = MAIN_FOLDERS.map(([name]) => name);
    for (const folder of folders) expect(placed).toContain(folder.name);
  });
});
