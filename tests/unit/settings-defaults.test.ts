// Main keeps the settings and the renderer starts from its own copy of the defaults until main answers: the
// two must be the same, or a fresh terminal would flicker from one theme or column set to another.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS as MAIN_DEFAULTS } from '../../src/main/settings/settings';
import type { Settings } from '../../src/shared/contract';

// Imported by a path the node type-check does not follow: the renderer's modules are typed against the DOM.
const RENDERER_SESSION = '../../src/renderer/src/store/session';

describe('the default settings', () => {
  it('are the same in main and in the renderer', async () => {
    const { DEFAULT_SETTINGS: RENDERER_DEFAULTS } = (await import(/* @vite-ignore */ RENDERER_SESSION)) as {
      DEFAULT_SETTINGS: Settings;
    };
    expect(MAIN_DEFAULTS).toEqual(RENDERER_DEFAULTS);
    expect(MAIN_DEFAULTS).toEqual({
      theme: 'dark',
      watchlist: [],
      cancelAllKey: 'X',
      marketColumns: ['title', 'outcomes', 'volume', 'liquidity', 'endDate'],
      activeWallet: null,
      panelSizes: {},
      keyBindings: {
        buyBest: 'B',
        sellBest: 'S',
        priceUp: '+',
        priceDown: '-',
        preset1: 'F1',
        preset2: 'F2',
        preset3: 'F3',
        preset4: 'F4',
        flatten: 'F',
        cancelMarket: 'C',
      },
      sizePresets: { unit: 'shares', sizes: [10, 50, 100, 500] },
      keyboardOrdersWithoutConfirm: false,
      marketSlippageTicks: 3,
      workspaces: {},
    });
  });
});

describe('the market slippage setting', () => {
  it('keeps whole ticks from 0 to 50 and puts anything else back to its default of 3', async () => {
    const { cleanSlippageTicks } = await import('../../src/main/settings/settings');
    expect([0, 3, 7, 50].map(cleanSlippageTicks)).toEqual([0, 3, 7, 50]);
    expect([-1, 51, 2.5, '5', null, undefined].map(cleanSlippageTicks)).toEqual([3, 3, 3, 3, 3, 3]);
  });
});
