// What the terminal remembers (settings, panel sizes, keys, workspaces) and the networks it can trade on,
// with the operations that read and change them.
import { z } from 'zod';
import { MARKET_SOURCE_KINDS, type MarketSourceKind } from '@pmdesk/toolkit/model';
import {
  PRESET_ACTIONS,
  SIZE_PRESET_MAX,
  TRADING_ACTIONS,
  isBindableKey,
  isSizePreset,
  type KeyBindings,
  type SizePresets,
} from '../key-bindings';
import { WorkspacesByNetworkSchema, type NetworkWorkspaces } from '../workspaces';
import { httpUrl, id, label, noInput, op, wsUrl } from './inputs';

/** Where a network reads markets: Polymarket's own APIs, or the aggregator (the toolkit's list, under the contract's name). */
export const MARKET_SOURCES = MARKET_SOURCE_KINDS;
export type MarketSourceName = MarketSourceKind;

export interface NetworkInfo {
  name: string;
  chainId: number;
  orderVersion: number | null;
  /** Which market-data source this network reads from. */
  source: MarketSourceName;
  clobUrl: string;
  /** '' when the network reads Polymarket directly. */
  aggregatorUrl: string;
  /** Polymarket's Gamma API; '' on an aggregator network. */
  gammaUrl: string;
  /** True for the local sandbox: nothing there is real money. */
  sandbox: boolean;
  /** 'electron' for the desktop window, 'browser' for browser mode. */
  shell: 'electron' | 'browser';
}

/** What the terminal remembers across restarts (kept by main in its data folder, not in the page). */
export interface Settings {
  theme: 'dark' | 'light';
  /** Market ids, in the order the trader put them. */
  watchlist: string[];
  /** The key that cancels every open order of the active wallet (with a confirmation). */
  cancelAllKey: string;
  /** The markets grid's visible columns, in order. */
  marketColumns: string[];
  /** The wallet last used, to select it again. */
  activeWallet: string | null;
  /**
   * The trader's panel sizes in CSS pixels, by panel ("markets", "ticket" width; "account" height), as the
   * splitters left them. A panel not named has its default size; the renderer keeps each within its bounds.
   */
  panelSizes: Record<string, number>;
  /** Keyboard trading: the key of each action (key-bindings.ts), every action bound, no key twice. */
  keyBindings: KeyBindings;
  /** The sizes the preset keys choose, in shares or dollars. */
  sizePresets: SizePresets;
  /** Keyboard orders go straight to placeOrder (its checks still run) instead of opening the confirmation. */
  keyboardOrdersWithoutConfirm: boolean;
  /**
   * A market order's default worst price: this many ticks past the price the book reaches for it (a BUY's max
   * price above, a SELL's min price below). The ticket shows it and the trader may type another price.
   */
  marketSlippageTicks: number;
  /**
   * The trader's named workspaces (tiles of markets and their widths) and the one shown, per network by its name:
   * a market id belongs to one network. A network has none until its first is saved.
   */
  workspaces: Record<string, NetworkWorkspaces>;
}

/** Bounds of a saved panel size: a name like "markets", a size in pixels no screen exceeds. */
export const PANEL_SIZE_NAME = /^[a-z][a-zA-Z0-9-]{0,39}$/;
export const PANEL_SIZE_MAX = 10_000;
export const PANEL_SIZES_MAX = 20;
/** A market order's slippage in ticks: 0 (the price the book reaches, no more) to this many. */
export const MARKET_SLIPPAGE_TICKS_MAX = 50;
export const DEFAULT_MARKET_SLIPPAGE_TICKS = 3;

/** A network the terminal can switch to. */
export interface NetworkChoice {
  name: string;
  chainId: number;
  /** Where it reads markets. */
  source: MarketSourceName;
  sandbox: boolean;
  /** The one this session trades on. */
  current: boolean;
  /** False when it cannot be used from here (the sandbox is not running); `reason` says why. */
  available: boolean;
  reason?: string;
}

export const settingsOperations = {
  // The network in use and the settings
  getNetwork: op<NetworkInfo>()(noInput, { summary: 'The network this session trades on.' }),
  getSettings: op<Settings>()(noInput, { summary: 'What the terminal remembers across restarts.' }),
  saveSettings: op<Settings>()(
    z.strictObject({
      theme: z.enum(['dark', 'light']).optional(),
      watchlist: z.array(id).max(1000).optional(),
      cancelAllKey: z.string().min(1).max(24).optional(),
      marketColumns: z.array(z.string().min(1).max(40)).max(40).optional(),
      activeWallet: label.nullable().optional(),
      panelSizes: z
        .record(z.string().regex(PANEL_SIZE_NAME), z.number().finite().min(0).max(PANEL_SIZE_MAX))
        .refine((sizes) => Object.keys(sizes).length <= PANEL_SIZES_MAX, {
          message: `at most ${PANEL_SIZES_MAX} panel sizes`,
        })
        .optional(),
      keyBindings: z
        .partialRecord(
          z.enum(TRADING_ACTIONS),
          z.string().min(1).max(8).refine(isBindableKey, { message: 'a letter, a digit, a sign or F1–F12' }),
        )
        .refine((keys) => new Set(Object.values(keys)).size === Object.values(keys).length, {
          message: 'one key per action',
        })
        .optional(),
      sizePresets: z
        .strictObject({
          unit: z.enum(['shares', 'usd']),
          sizes: z
            .array(
              z
                .number()
                .refine(isSizePreset, { message: `a positive size of at most ${SIZE_PRESET_MAX} with two decimals` }),
            )
            .length(PRESET_ACTIONS.length),
        })
        .optional(),
      keyboardOrdersWithoutConfirm: z.boolean().optional(),
      marketSlippageTicks: z.number().int().min(0).max(MARKET_SLIPPAGE_TICKS_MAX).optional(),
      /** The networks named here get these workspaces; the other networks' stay as they are. */
      workspaces: WorkspacesByNetworkSchema.optional(),
    }),
    {
      summary: 'Change some settings; the rest stay as they are (workspaces: per network named).',
      maxPayloadBytes: 65_536,
    },
  ),
  listNetworks: op<NetworkChoice[]>()(noInput, { summary: 'The networks this terminal can switch to.' }),
  switchNetwork: op<NetworkInfo>()(z.strictObject({ name: label }), {
    summary: 'Trade on another network: feeds are closed and reopened, wallets stay as they are.',
  }),
  addNetwork: op<NetworkChoice>()(
    z
      .strictObject({
        name: label,
        chainId: z
          .number()
          .int()
          .positive()
          .max(2 ** 40),
        /** Where its markets are read: the aggregator (aggregatorUrl) or Polymarket's APIs (gammaUrl, dataUrl). */
        source: z.enum(MARKET_SOURCES).default('aggregator'),
        aggregatorUrl: httpUrl.optional(),
        gammaUrl: httpUrl.optional(),
        dataUrl: httpUrl.optional(),
        clobUrl: httpUrl,
        rpcUrl: httpUrl,
        wsUrl: wsUrl.optional(),
        rtdsUrl: wsUrl.optional(),
        orderVersion: z.union([z.literal(1), z.literal(2), z.literal(3)]),
      })
      .refine((n) => n.source !== 'aggregator' || n.aggregatorUrl !== undefined, {
        message: 'an aggregator network needs its aggregatorUrl',
        path: ['aggregatorUrl'],
      })
      .refine((n) => n.source !== 'polymarket' || (n.gammaUrl !== undefined && n.dataUrl !== undefined), {
        message: 'a Polymarket network needs its gammaUrl and dataUrl',
        path: ['gammaUrl'],
      }),
    { summary: 'Remember a custom network (a private CLOB, a fork): its market-data source and URLs.' },
  ),
} as const;
