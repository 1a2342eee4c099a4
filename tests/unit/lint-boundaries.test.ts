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
    const errors = await boundaryErrors(
      'src/renderer/src/panel.ts',
      "import { AggregatorClient } from '../../main/toolkit';\nexport const c = AggregatorClient;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/renderer may import only src\/shared/);
  });

  it('the renderer may not import Node built-ins or electron', async () => {
    expect(
      await boundaryErrors(
        'src/renderer/src/a.ts',
        "import { readFile } from 'node:fs';\nexport const r = readFile;\n",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'src/renderer/src/a.ts',
        "import { ipcRenderer } from 'electron';\nexport const r = ipcRenderer;\n",
      ),
    ).toHaveLength(1);
  });

  it('the renderer may import src/shared', async () => {
    expect(
      await boundaryErrors(
        'src/renderer/src/a.ts',
        "import { ErrorCode } from '../../shared/errors';\nexport const c = ErrorCode;\n",
      ),
    ).toEqual([]);
  });

  it("inside the page, store/ and the page's model never import components/", async () => {
    const fromComponents = "import { rowOfMarket } from '../components/markets/rows';\nexport const r = rowOfMarket;\n";
    for (const file of ['src/renderer/src/store/x.ts', 'src/renderer/src/prices/x.ts', 'src/renderer/src/live/x.ts']) {
      expect((await boundaryErrors(file, fromComponents)).join()).toMatch(
        /src\/renderer\/src\/(store|prices|live) may import only/,
      );
    }
    for (const file of ['src/renderer/src/model/x.ts', 'src/renderer/src/format/x.ts']) {
      expect((await boundaryErrors(file, fromComponents)).join()).toMatch(
        /src\/renderer\/src\/(model|format) may import only/,
      );
    }
    expect(
      (
        await boundaryErrors(
          'src/renderer/src/model/x.ts',
          "import { useMarkets } from '../store/markets';\nexport const m = useMarkets;\n",
        )
      ).join(),
    ).toMatch(/src\/renderer\/src\/model may import only src\/renderer\/src\/format \(/);
    // The narrower entries keep the whole renderer's rules.
    expect(
      await boundaryErrors(
        'src/renderer/src/store/x.ts',
        "import { readFile } from 'node:fs';\nexport const r = readFile;\n",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'src/renderer/src/model/x.ts',
        "import { AggregatorClient } from '../../../main/toolkit';\nexport const c = AggregatorClient;\n",
      ),
    ).toHaveLength(1);
    // Components use both.
    const down =
      "import { useMarkets } from '../../store/markets';\nimport { rowOfMarket } from '../../model/market-rows';\nexport const a = [useMarkets, rowOfMarket];\n";
    expect(await boundaryErrors('src/renderer/src/components/markets/x.ts', down)).toEqual([]);
    expect(
      await boundaryErrors(
        'src/renderer/src/store/x.ts',
        "import { rowOfMarket } from '../model/market-rows';\nexport const r = rowOfMarket;\n",
      ),
    ).toEqual([]);
  });

  it('src/shared imports neither Node nor any other layer', async () => {
    expect(
      await boundaryErrors('src/shared/x.ts', "import { join } from 'path';\nexport const j = join;\n"),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'src/shared/x.ts',
        "import { AggregatorClient } from '../main/toolkit';\nexport const c = AggregatorClient;\n",
      ),
    ).toHaveLength(1);
  });

  it('the toolkit package never imports electron, React, Node built-ins or the services above it', async () => {
    expect(
      await boundaryErrors('packages/toolkit/src/x.ts', "import { app } from 'electron';\nexport const a = app;\n"),
    ).toHaveLength(1);
    expect(
      await boundaryErrors('packages/toolkit/src/x.ts', "import { w } from '../wallets/store';\nexport const a = w;\n"),
    ).toHaveLength(1);
    expect(
      (
        await boundaryErrors(
          'packages/toolkit/src/x.ts',
          "import { readFile } from 'node:fs';\nexport const r = readFile;\n",
        )
      ).join(),
    ).toMatch(/runs in browsers too/);
    expect(
      await boundaryErrors(
        'packages/toolkit/src/x.ts',
        "import { useState } from 'react';\nexport const r = useState;\n",
      ),
    ).toHaveLength(1);
  });

  it('outside the package, the toolkit is reached only by its published entries', async () => {
    const ok =
      "import { ClobClient } from '@pmdesk/toolkit';\nimport { ErrorCode } from '@pmdesk/toolkit/model';\nimport type { Trader } from '@pmdesk/toolkit/aggregator-wire';\nexport const a = [ClobClient, ErrorCode];\nexport type T = Trader;\n";
    for (const file of ['src/main/trading/x.ts', 'src/cli/x.ts', 'src/main/app/x.ts', 'bench/x.ts', 'examples/x.ts'])
      expect(await boundaryErrors(file, ok)).toEqual([]);
    const deep = "import { OrderBuilder } from '@pmdesk/toolkit/src/orders/builder';\nexport const a = OrderBuilder;\n";
    const byPath =
      "import { OrderBuilder } from '../../../packages/toolkit/src/orders/builder';\nexport const a = OrderBuilder;\n";
    for (const file of [
      'src/main/trading/x.ts',
      'src/cli/x.ts',
      'src/renderer/src/x.ts',
      'sandbox/clob/x.ts',
      'bench/x.ts',
      'examples/x.ts',
    ]) {
      expect((await boundaryErrors(file, deep)).join()).toMatch(/the rest of the package is private/);
      expect((await boundaryErrors(file, byPath)).join()).toMatch(/by its package name/);
    }
  });

  it('src/shared takes only the pure model from the toolkit', async () => {
    expect(
      await boundaryErrors(
        'src/shared/x.ts',
        "import { ErrorCode } from '@pmdesk/toolkit/model';\nexport const c = ErrorCode;\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'src/shared/x.ts',
        "import { ClobClient } from '@pmdesk/toolkit';\nexport const c = ClobClient;\n",
      ),
    ).toHaveLength(1);
  });

  it('the preload imports only electron and src/shared', async () => {
    expect(
      await boundaryErrors(
        'src/preload/x.ts',
        "import { AggregatorClient } from '../main/toolkit';\nexport const a = AggregatorClient;\n",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'src/preload/x.ts',
        "import { contextBridge } from 'electron';\nimport { ErrorCode } from '../shared/errors';\nexport const a = [contextBridge, ErrorCode];\n",
      ),
    ).toEqual([]);
  });

  it('services and the CLI never import electron', async () => {
    expect(
      await boundaryErrors('src/main/trading/x.ts', "import { app } from 'electron';\nexport const a = app;\n"),
    ).toHaveLength(1);
    expect(
      await boundaryErrors('src/cli/x.ts', "import { app } from 'electron';\nexport const a = app;\n"),
    ).toHaveLength(1);
  });

  it('the sandbox never imports the toolkit signing or auth code', async () => {
    expect(
      await boundaryErrors(
        'sandbox/clob/x.ts',
        "import { signOrder } from '@pmdesk/toolkit';\nexport const a = signOrder;\n",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'sandbox/clob/x.ts',
        "import type { TradeRecord } from '@pmdesk/toolkit/aggregator-wire';\nexport type T = TradeRecord;\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'sandbox/sim/x.ts',
        "import { verifyL1 } from '../clob/auth';\nexport const a = verifyL1;\n",
      ),
    ).toEqual([]);
  });

  it('a folder of src/main imports only the folders placed below it', async () => {
    // Trading sits under following: the order flow never reaches up into the feeds that follow accounts.
    const upward = "import { AccountFeeds } from '../follow/account-feeds';\nexport const a = AccountFeeds;\n";
    expect((await boundaryErrors('src/main/trading/x.ts', upward)).join()).toMatch(
      /src\/main\/trading may import only/,
    );
    // The handlers table names services by their interfaces: it imports none of the capability folders.
    expect(
      await boundaryErrors(
        'src/main/ipc/x.ts',
        "import type { AlertService } from '../alerts/alerts';\nexport type A = AlertService;\n",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'src/main/alerts/x.ts',
        "import type { StopService } from '../stops/stops';\nexport type S = StopService;\n",
      ),
    ).toHaveLength(1);
    const downward =
      "import type { EventHub } from '../ipc/event-hub';\nimport { Follower } from '../follow/follower';\nimport { z } from 'zod';\nexport const a = [Follower, z];\nexport type H = EventHub;\n";
    expect(await boundaryErrors('src/main/watch/x.ts', downward)).toEqual([]);
    expect(
      await boundaryErrors(
        'src/main/follow/x.ts',
        "import { ErrorCode } from '../../shared/contract';\nexport const c = ErrorCode;\n",
      ),
    ).toEqual([]);
  });

  it('only src/main/app may import electron', async () => {
    const code = "import { app } from 'electron';\nexport const a = app;\n";
    for (const folder of ['ipc', 'follow', 'watch', 'alerts', 'stops', 'settings', 'terminal', 'host'])
      expect(await boundaryErrors(`src/main/${folder}/x.ts`, code)).toHaveLength(1);
    expect(await boundaryErrors('src/main/app/x.ts', code)).toEqual([]);
  });

  it('a folder of src/main that is not placed is refused until it is', async () => {
    const code = 'export const a = 1;\n';
    expect((await placementErrors('src/main/orders2/x.ts', code)).join()).toMatch(/src\/main\/orders2 is not placed/);
    expect(await placementErrors('src/main/loose.ts', code)).toHaveLength(1);
    expect(await placementErrors('src/main/follow/x.ts', code)).toEqual([]);
  });

  it('every folder of src/main is placed', async () => {
    const { MAIN_FOLDERS } = (await import(pathToFileURL(resolve('eslint.config.js')).href)) as {
      MAIN_FOLDERS: [string, string[]][];
    };
    const folders = readdirSync('src/main', { withFileTypes: true });
    expect(folders.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)).toEqual([]);
    const placed = MAIN_FOLDERS.map(([name]) => name);
    for (const folder of folders) expect(placed).toContain(folder.name);
  });

  it('a folder of the page imports only the folders placed below it', async () => {
    // The stores sit under the price hooks: store/ never reaches up into prices/ (the circle it used to make).
    const upward = "import { useQuote } from '../prices/useQuote';\nexport const q = useQuote;\n";
    expect((await boundaryErrors('src/renderer/src/store/x.ts', upward)).join()).toMatch(
      /src\/renderer\/src\/store may import only/,
    );
    expect(
      await boundaryErrors(
        'src/renderer/src/model/x.ts',
        "import { ask } from '../bridge/terminal';\nexport const a = ask;\n",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'src/renderer/src/keys/x.ts',
        "import { ask } from '../bridge/terminal';\nexport const a = ask;\n",
      ),
    ).toHaveLength(1);
    const downward =
      "import { ask } from '../bridge/terminal';\nimport { quoteOf } from '../model/quote';\nexport const a = [ask, quoteOf];\n";
    expect(await boundaryErrors('src/renderer/src/store/x.ts', downward)).toEqual([]);
    expect(
      await boundaryErrors(
        'src/renderer/src/components/ticket/x.ts',
        "import { registerShortcut } from '../../keys/keyboard';\nexport const k = registerShortcut;\n",
      ),
    ).toEqual([]);
  });

  it('a folder of the toolkit imports only the folders placed below it', async () => {
    // The chain's addresses sit under accounts: chain/ never reaches up for a wallet's derivation.
    const upward = "import { checkedAddress } from '../accounts/derive';\nexport const c = checkedAddress;\n";
    expect((await boundaryErrors('packages/toolkit/src/chain/x.ts', upward)).join()).toMatch(
      /packages\/toolkit\/src\/chain may import only/,
    );
    expect(
      await boundaryErrors(
        'packages/toolkit/src/aggregator/x.ts',
        "import { createMarketSource } from '../sources/create';\nexport const c = createMarketSource;\n",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'packages/toolkit/src/clob/x.ts',
        "import { polymarketHttp } from '../polymarket/http';\nexport const p = polymarketHttp;\n",
      ),
    ).toHaveLength(1);
    expect(
      (
        await boundaryErrors(
          'packages/toolkit/src/model/x.ts',
          "import { toHex } from '../base/bytes';\nexport const h = toHex;\n",
        )
      ).join(),
    ).toMatch(/no other folder of packages\/toolkit\/src/);
    const downward =
      "import { networkFor } from '../chain/networks';\nimport { ErrorCode } from '../model/errors';\nexport const a = [networkFor, ErrorCode];\n";
    expect(await boundaryErrors('packages/toolkit/src/accounts/x.ts', downward)).toEqual([]);
    // A folder keeps the package's own rules.
    expect(
      (
        await boundaryErrors(
          'packages/toolkit/src/orders/x.ts',
          "import { readFile } from 'node:fs';\nexport const r = readFile;\n",
        )
      ).join(),
    ).toMatch(/runs in browsers too/);
  });

  it('a folder of the toolkit or the page that is not placed is refused until it is', async () => {
    const code = 'export const a = 1;\n';
    expect((await placementErrors('packages/toolkit/src/wire2/x.ts', code)).join()).toMatch(
      /packages\/toolkit\/src\/wire2 is not placed: add it to TOOLKIT_FOLDERS/,
    );
    expect((await placementErrors('src/renderer/src/hooks/x.ts', code)).join()).toMatch(
      /src\/renderer\/src\/hooks is not placed: add it to RENDERER_FOLDERS/,
    );
    // Straight in the base, only the entries: a helper there would be imported back by the folders.
    expect(await placementErrors('packages/toolkit/src/helpers.ts', code)).toHaveLength(1);
    expect(await placementErrors('src/renderer/src/helpers.ts', code)).toHaveLength(1);
    expect(await placementErrors('packages/toolkit/src/index.ts', code)).toEqual([]);
    expect(await placementErrors('src/renderer/src/main.tsx', code)).toEqual([]);
    expect(await placementErrors('packages/toolkit/src/chain/x.ts', code)).toEqual([]);
    expect(await placementErrors('src/renderer/src/components/market/x.ts', code)).toEqual([]);
  });

  it('every folder of the toolkit and of the page is placed', async () => {
    const config = (await import(pathToFileURL(resolve('eslint.config.js')).href)) as Record<
      'TOOLKIT_FOLDERS' | 'RENDERER_FOLDERS',
      [string, string[]][]
    >;
    for (const [base, list] of [
      ['packages/toolkit/src', config.TOOLKIT_FOLDERS],
      ['src/renderer/src', config.RENDERER_FOLDERS],
    ] as const) {
      const placed = list.map(([name]) => name);
      for (const folder of readdirSync(base, { withFileTypes: true }).filter((entry) => entry.isDirectory()))
        expect(placed).toContain(folder.name);
    }
  });
});
