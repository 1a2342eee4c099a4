// Each followed market's state — open, closed awaiting resolution, or resolved with its winner — pushed to the
// windows that follow it as `marketState` events, so nothing waits for a tab switch to show a resolution.
// Resolution is read where it is authoritative, the chain's ConditionalTokens payouts (every couple of seconds,
// one call per unresolved market, one at a time), and the source's record is read again on a slower bounded schedule for what
// the chain does not know (a market that closed and awaits its resolution), and at once when the chain says so
// or the exchange's market channel sends `market_resolved`.
import type { Market } from '@pmdesk/toolkit/model';
import { ErrorCode, PmDeskError } from '@pmdesk/toolkit/model';
import { Interface } from 'ethers';
import { conditionId32, resolutionOf, type ContractReader, type Resolution } from '@pmdesk/toolkit';
import type { MarketStateInfo } from '../../shared/contract';
import type { EventHub } from '../ipc/event-hub';
import { Follower } from './follower';

/** What the watch reads: the source's market record, and where the network has a chain, a condition's payouts. */
export interface MarketStateReads {
  getMarket(protocol: string, marketId: string): Promise<Market>;
  resolution?(conditionId: string): Promise<Resolution>;
}

export interface MarketStatesOptions {
  /** How often the chain is asked about each unresolved market (2 s unless told). */
  chainEveryMs?: number;
  /** How often the source's record is read again (15 s unless told; this is the only check without a chain). */
  sourceEveryMs?: number;
  /** No read waits longer than this (10 s unless told). */
  timeoutMs?: number;
  now?: () => number;
}

const DENOMINATOR = new Interface(['function payoutDenominator(bytes32 conditionId) view returns (uint256)']);

/**
 * Reads a condition's resolution on ConditionalTokens, one call while it is unresolved (its payout denominator:
 * 0 until the oracle reports), the numerators only once it has (the toolkit's resolutionOf checks them).
 */
export function chainResolution(
  rpc: ContractReader,
  conditionalTokens: string,
): (conditionId: string) => Promise<Resolution> {
  return async (conditionId) => {
    const answer = await rpc.call({
      to: conditionalTokens,
      data: DENOMINATOR.encodeFunctionData('payoutDenominator', [conditionId32(conditionId)]),
    });
    if (typeof answer !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(answer))
      throw new PmDeskError(ErrorCode.VALIDATION_ERROR, 'payoutDenominator did not answer one 32-byte word.');
    if (BigInt(answer) === 0n) return { state: 'unresolved' };
    return resolutionOf(rpc, conditionalTokens, conditionId);
  };
}

/** The most markets one network follows the state of (tiles, positions and the grid's visible rows together). */
export const MAX_MARKET_STATES = 200;

interface Followed {
  protocol: string;
  marketId: string;
  /** The follower's live set of the market's clients. */
  clients: ReadonlySet<string>;
  info: MarketStateInfo | undefined;
  ready: Promise<MarketStateInfo> | undefined;
  sourceReadAt: number;
}

const price01 = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : null;
};

/**
 * A market's state from its record and, where read, its condition's payouts. The chain's payouts are the word
 * that counts (a denominator set means resolved; each outcome then pays numerator / denominator a share); else
 * a winner the source names, or a closed market whose listed prices are exactly 1 and 0 (how Gamma lists a
 * resolved one); else closed (awaiting resolution) or open.
 */
export function marketStateOf(
  protocol: string,
  marketId: string,
  market: Market,
  resolution?: Resolution,
): MarketStateInfo {
  const tokens = market.position_tokens.map((t) => t.token_id);
  const resolved = (finals: number[]): MarketStateInfo => {
    const winners = tokens.filter((_, i) => finals[i] === 1);
    return {
      protocol,
      marketId,
      state: 'resolved',
      winnerTokenId: winners.length === 1 ? winners[0]! : null,
      finalPrices: Object.fromEntries(tokens.map((t, i) => [t, finals[i] ?? 0])),
      market,
    };
  };
  if (resolution?.state === 'resolved' && resolution.numerators.length >= tokens.length) {
    return resolved(
      tokens.map((_, i) => Number((resolution.numerators[i]! * 10_000n) / resolution.denominator) / 10_000),
    );
  }
  if (market.winnerTokenId && tokens.includes(market.winnerTokenId))
    return resolved(tokens.map((t) => (t === market.winnerTokenId ? 1 : 0)));
  if (market.closed === true) {
    const listed = market.position_tokens.map((t) => price01(t.price));
    if (listed.every((p) => p === 0 || p === 1) && listed.filter((p) => p === 1).length === 1)
      return resolved(listed as number[]);
    return { protocol, marketId, state: 'closed', winnerTokenId: null, finalPrices: null, market };
  }
  return { protocol, marketId, state: 'open', winnerTokenId: null, finalPrices: null, market };
}

const changed = (a: MarketStateInfo | undefined, b: MarketStateInfo) =>
  !a ||
  a.state !== b.state ||
  a.winnerTokenId !== b.winnerTokenId ||
  a.market.accepting_orders !== b.market.accepting_orders ||
  a.market.active !== b.market.active;

function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new PmDeskError(ErrorCode.TIMEOUT_ERROR, `${what} did not answer within ${Math.round(ms / 1000)} s.`)),
      ms,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export class MarketStates {
  /** The markets followed and who follows each, counted by the one follower of main (it hears clients go away). */
  private readonly markets: Follower<Followed>;
  private timer: ReturnType<typeof setInterval> | undefined;
  private checking = false;
  private closed = false;
  private readonly chainEveryMs: number;
  private readonly sourceEveryMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(
    private readonly hub: EventHub,
    private readonly reads: MarketStateReads,
    options: MarketStatesOptions = {},
  ) {
    this.chainEveryMs = options.chainEveryMs ?? 2_000;
    this.sourceEveryMs = options.sourceEveryMs ?? 15_000;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.now = options.now ?? Date.now;
    // A state nobody follows has nothing to close: it is dropped, and a round still reading it keeps its answer.
    this.markets = new Follower<Followed>(hub, () => undefined);
  }

  /** Follows a market's state for a window; answers its state now (read once, shared by every window). */
  async follow(clientId: string, protocol: string, marketId: string): Promise<MarketStateInfo> {
    if (!this.markets.feedOf({ protocol, marketId }) && this.markets.followed().length >= MAX_MARKET_STATES) {
      throw new PmDeskError(
        ErrorCode.INVALID_PARAMETER,
        `PM Desk follows the state of at most ${MAX_MARKET_STATES} markets at once: close some tiles first.`,
      );
    }
    const watched = this.markets.follow(clientId, { protocol, marketId }, (clients) => ({
      protocol,
      marketId,
      clients,
      info: undefined,
      ready: undefined,
      sourceReadAt: 0,
    }));
    this.start();
    watched.ready ??= this.check(watched, true).then(() => {
      if (!watched.info) throw new PmDeskError(ErrorCode.NOT_FOUND, `The market ${marketId} could not be read.`);
      return watched.info;
    });
    try {
      return await watched.ready;
    } catch (error) {
      watched.ready = undefined;
      this.unfollow(clientId, marketId);
      throw error;
    }
  }

  unfollow(clientId: string, marketId: string): boolean {
    return this.markets.unfollow(clientId, marketId);
  }

  releaseClient(clientId: string): void {
    this.markets.releaseClient(clientId);
  }

  /** Asks again at once about a token's market the exchange says resolved (its `market_resolved` message), if followed. */
  nudgeToken(tokenId: string): void {
    for (const followed of this.markets.feeds()) {
      if (
        followed.info?.state !== 'resolved' &&
        followed.info?.market.position_tokens.some((t) => t.token_id === tokenId)
      )
        void this.check(followed, true);
    }
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.markets.closeAll();
  }

  private start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => void this.round(), this.chainEveryMs);
    this.timer.unref?.();
  }

  /** One round over the unresolved markets, one at a time (a round still running skips the next). */
  private async round(): Promise<void> {
    if (this.checking || this.closed) return;
    this.checking = true;
    try {
      for (const followed of this.markets.feeds()) {
        if (followed.info?.state === 'resolved' || !followed.info) continue;
        await this.check(followed, false);
      }
    } finally {
      this.checking = false;
    }
  }

  private async check(followed: Followed, readSource: boolean): Promise<void> {
    const { protocol, marketId } = followed;
    try {
      const conditionId = followed.info?.market.conditionId;
      const resolution =
        conditionId && this.reads.resolution
          ? await within(this.reads.resolution(conditionId), this.timeoutMs, "The chain's node").catch(() => undefined)
          : undefined;
      const due =
        readSource ||
        !followed.info ||
        resolution?.state === 'resolved' ||
        this.now() - followed.sourceReadAt >= this.sourceEveryMs;
      let market = followed.info?.market;
      if (due) {
        market = await within(this.reads.getMarket(protocol, marketId), this.timeoutMs, "The market's source");
        followed.sourceReadAt = this.now();
      }
      if (!market) return;
      // The record read first names the condition: its payouts are read right away, not a round later.
      const first =
        !conditionId && market.conditionId && this.reads.resolution
          ? await within(this.reads.resolution(market.conditionId), this.timeoutMs, "The chain's node").catch(
              () => undefined,
            )
          : undefined;
      const next = marketStateOf(protocol, marketId, market, resolution ?? first);
      if (this.closed || this.markets.feedOf(followed) !== followed) return;
      const before = followed.info;
      followed.info = next;
      if (before && changed(before, next)) this.hub.emit('marketState', next, followed.clients);
    } catch {
      // Unread this round (a source or node away): the next round asks again; the state shown stays as it was.
    }
  }
}
