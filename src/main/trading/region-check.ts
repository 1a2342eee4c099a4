// The region and account checks before trading (docs/protocol.md#geoblock) for the network in use: Polymarket's
// geoblock answer (at start, then every few minutes) and, per unlocked wallet asked about, the exchange's
// close-only mode through the order flow's credentials. getTradingAccess answers from them, a `tradingAccess`
// event says when an answer changes, and the order flow asks `refusal` before each new order as a second line
// of defence. PM Desk only reads these answers: nothing here tries to get around a block.
//
// A check that could not be made ('unknown') does not hold orders back: a network error of our own (a timeout,
// polymarket.com unreachable) is not Polymarket saying no, and the exchange still refuses what it must. But a
// real answer is never dropped for a failure: once blocked, a failed re-check keeps it blocked (docs/decisions/0015-region-and-close-only-checks-before-trading.md).
import { z } from 'zod';
import type { TradingAccessInfo } from '../../shared/contract';
import type { TradingAccess } from '@pmdesk/toolkit/model';
import { realScheduler, type Scheduler } from '../feeds/scheduler';
import { silentLogger, type Logger } from '@pmdesk/toolkit';
import type { OrderSide } from '@pmdesk/toolkit';
import { checkGeoblock } from '@pmdesk/toolkit';
import { parseAnswer } from '@pmdesk/toolkit';
import type { TradingService as OrderFlow, TradingWallet } from './service';
import { tradingWalletNamed } from './trading-access';
import type { TradingWallets } from './trading-access';

/** How often the region and the asked-about accounts are checked again. */
export const DEFAULT_REGION_CHECK_MS = 5 * 60_000;

/** `US-NY`, `US`, or nothing when the answer named no place. */
const placeOf = (access: TradingAccess): string => [access.country, access.region].filter(Boolean).join('-');

export const blockedSentence = (where: string): string =>
  `Trading is not available from your region${where ? ` (${where})` : ''}: Polymarket blocks new orders there. You can still browse markets.`;
export const CLOSE_ONLY_SENTENCE =
  'This account is in close-only mode: you can cancel orders and sell positions, but not open new ones.';
/** The quiet note for a check that could not be made; `why` is checkGeoblock's reason (its own lead-in dropped). */
export const uncheckedNote = (why: string): string =>
  `PM Desk could not check whether Polymarket allows trading from here (${why.replace(/^Could not check whether trading is allowed from here: /, '').slice(0, 160)}); orders are not held back for that.`;

const OK: TradingAccess = { allowed: true, state: 'ok', reason: '' };

/** Asks a wallet's close-only mode; undefined when it cannot be asked now (a locked wallet). Throws when the asking failed. */
export type ClosedOnlyAsker = (wallet: TradingWallet) => Promise<boolean | undefined>;

export interface RegionCheckOptions {
  /** The profile's geoblock URL; without one there is nothing to ask and the region is 'ok'. */
  geoblockUrl?: string;
  /** The geoblock check (the toolkit's checkGeoblock unless given; it never throws). */
  checkRegion?: (url: string) => Promise<TradingAccess>;
  /** Without it (no order flow) only the region is checked. */
  closedOnly?: ClosedOnlyAsker;
  /** A wallet by its label; throws a sentence when there is none. */
  walletNamed?: (label: string) => Promise<TradingWallet>;
  /** Told each changed answer (the `tradingAccess` event). */
  emit(info: TradingAccessInfo): void;
  intervalMs?: number;
  scheduler?: Scheduler;
  logger?: Logger;
}

interface Account {
  wallet: TradingWallet;
  /** The label it was asked about by, to name it in events. */
  label: string | null;
  /** The last real answer; undefined until there is one. */
  closedOnly: boolean | undefined;
  checkedAt: number;
  asking: Promise<boolean | undefined> | undefined;
}

/** The wallet's address, as the order flow names it. */
const addressOf = (wallet: TradingWallet): string =>
  (wallet.kind === 'worker' ? wallet.address : (wallet.walletAddress ?? '')).toLowerCase();

export class RegionCheck {
  private region: TradingAccess | undefined;
  private checking: Promise<TradingAccess> | undefined;
  private readonly accounts = new Map<string, Account>();
  private readonly intervalMs: number;
  private readonly scheduler: Scheduler;
  private readonly logger: Logger;
  private timer: unknown;
  private closed = false;

  constructor(private readonly options: RegionCheckOptions) {
    this.intervalMs = options.intervalMs ?? DEFAULT_REGION_CHECK_MS;
    this.scheduler = options.scheduler ?? realScheduler;
    this.logger = options.logger ?? silentLogger;
  }

  /** The first check now, then one every interval. */
  start(): void {
    void this.checkRegion();
    this.schedule();
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** getTradingAccess: the region's answer, and for a wallet its account's close-only mode on top. */
  async access(label?: string): Promise<TradingAccessInfo> {
    const region = await this.regionNow();
    if (!label) return { ...region, wallet: null };
    // Without wallets (no signer) there is no account to ask about: the region's answer is all there is.
    if (!this.options.walletNamed) return { ...region, wallet: label };
    const wallet = await this.options.walletNamed(label);
    const account = this.account(wallet, label);
    return { ...combine(region, await this.closedOnlyOf(account)), wallet: account.label ?? label };
  }

  /**
   * Why a new order must not go out, or undefined: a blocked region refuses every new order, close-only (the
   * region's or the account's) refuses a BUY. Cancels never come here, and a SELL of held shares passes close-only.
   * `ask`: the account may be asked now (the order holds its credentials); otherwise only a known answer counts,
   * so that checking never makes a wallet's credentials behind the order's back.
   */
  async refusal(wallet: TradingWallet, side: OrderSide, ask = true): Promise<string | undefined> {
    const region = await this.regionNow();
    if (region.state === 'blocked') return region.reason;
    if (side !== 'BUY') return undefined;
    if (region.state === 'close-only') return region.reason;
    const account = this.account(wallet, null);
    const closedOnly = ask ? await this.closedOnlyOf(account) : account.closedOnly;
    return closedOnly ? CLOSE_ONLY_SENTENCE : undefined;
  }

  // ---- the region ------------------------------------------------------------------------------

  private regionNow(): Promise<TradingAccess> {
    if (this.region) return Promise.resolve(this.region);
    return this.checking ?? this.checkRegion();
  }

  private checkRegion(): Promise<TradingAccess> {
    if (this.checking) return this.checking;
    const run = this.askRegion()
      .then((next) => {
        const previous = this.region;
        this.region = next;
        if (!this.closed && (!previous || previous.state !== next.state || previous.reason !== next.reason))
          this.options.emit({ ...next, wallet: null });
        return next;
      })
      .finally(() => {
        if (this.checking === run) this.checking = undefined;
      });
    this.checking = run;
    return run;
  }

  private async askRegion(): Promise<TradingAccess> {
    const url = this.options.geoblockUrl;
    if (!url) return OK;
    const answer = await (this.options.checkRegion ?? checkGeoblock)(url);
    const located = {
      ...(answer.country ? { country: answer.country } : {}),
      ...(answer.region ? { region: answer.region } : {}),
    };
    if (answer.state === 'blocked')
      return { allowed: false, state: 'blocked', reason: blockedSentence(placeOf(answer)), ...located };
    if (answer.state === 'close-only') return { ...answer, allowed: false };
    if (answer.state === 'ok') return { allowed: true, state: 'ok', reason: '', ...located };
    // No answer: a real 'blocked' heard before still stands; anything else does not hold orders back.
    if (this.region && this.region.state !== 'ok' && this.region.state !== 'unknown') {
      this.logger.warn(`the region check failed; keeping its last answer (${this.region.state}): ${answer.reason}`);
      return this.region;
    }
    this.logger.warn(`the region check failed: ${answer.reason}`);
    return { allowed: true, state: 'unknown', reason: uncheckedNote(answer.reason) };
  }

  // ---- accounts ----------------------------------------------------------------------------------

  private account(wallet: TradingWallet, label: string | null): Account {
    const key = addressOf(wallet);
    let account = this.accounts.get(key);
    if (!account) {
      account = { wallet, label, closedOnly: undefined, checkedAt: 0, asking: undefined };
      this.accounts.set(key, account);
    }
    if (label) account.label = label;
    return account;
  }

  /** The account's close-only mode: asked again once its last answer is an interval old; undefined when unknown. */
  private closedOnlyOf(account: Account): Promise<boolean | undefined> {
    if (!this.options.closedOnly) return Promise.resolve(undefined);
    if (account.closedOnly !== undefined && this.scheduler.now() - account.checkedAt < this.intervalMs)
      return Promise.resolve(account.closedOnly);
    return this.askClosedOnly(account);
  }

  private askClosedOnly(account: Account): Promise<boolean | undefined> {
    if (account.asking) return account.asking;
    const ask = this.options.closedOnly;
    if (!ask) return Promise.resolve(undefined);
    const run = (async () => {
      let answer: boolean | undefined;
      try {
        answer = await ask(account.wallet);
      } catch (error) {
        // Not asked this time: the last real answer stands (a close-only account stays so), else unknown.
        this.logger.warn(`the close-only check of ${addressOf(account.wallet)} failed`, error);
        return account.closedOnly;
      }
      if (answer === undefined) return account.closedOnly;
      const before = account.closedOnly;
      account.closedOnly = answer;
      account.checkedAt = this.scheduler.now();
      // The first answer is what getTradingAccess returns; a change later is news for every window.
      if (before !== undefined && before !== answer && account.label && this.region && !this.closed) {
        this.options.emit({ ...combine(this.region, answer), wallet: account.label });
      }
      return answer;
    })().finally(() => {
      account.asking = undefined;
    });
    account.asking = run;
    return run;
  }

  // ---- every interval ----------------------------------------------------------------------------

  private schedule(): void {
    if (this.closed) return;
    this.timer = this.scheduler.setTimeout(() => void this.recheck(), this.intervalMs);
  }

  private async recheck(): Promise<void> {
    if (this.closed) return;
    await this.checkRegion();
    await Promise.all(
      [...this.accounts.values()].filter((a) => a.closedOnly !== undefined).map((a) => this.askClosedOnly(a)),
    );
    this.schedule();
  }
}

/** The region's answer with the account's close-only mode on top (a blocked region says more than close-only). */
function combine(region: TradingAccess, closedOnly: boolean | undefined): TradingAccess {
  if (!region.allowed) return region;
  if (closedOnly) return { ...region, allowed: false, state: 'close-only', reason: CLOSE_ONLY_SENTENCE };
  return region;
}

const ClosedOnlySchema = z.looseObject({ closed_only: z.boolean() });

/** Close-only through the order flow's level 2 client (credentials as for an order); only for unlocked PM Desk wallets. */
export function closedOnlyAsker(flow: OrderFlow, wallets: TradingWallets): ClosedOnlyAsker {
  return async (wallet) => {
    if (wallet.kind === 'worker') {
      const unlocked = await wallets.signer.unlocked();
      if (!unlocked.some((a) => a.toLowerCase() === wallet.address.toLowerCase())) return undefined;
    }
    const client = await flow.exchangeClient(wallet);
    return parseAnswer(ClosedOnlySchema, await client.getClosedOnlyMode(), 'getClosedOnlyMode').closed_only;
  };
}

/** The terminal's wallets by label, as the order flow trades with them. */
export const walletNamedIn =
  (wallets: TradingWallets) =>
  (label: string): Promise<TradingWallet> =>
    tradingWalletNamed(wallets, label);
