// The Portfolio view's service: whose portfolio (a wallet's trading account, or any address), built by the
// ledger and kept a short while per address and period, built again after the account's fills and money
// actions; and the activity export of a date range as CSV.
import { ErrorCode, PmDeskError } from '@pmdesk/toolkit/model';
import type {
  AccountingSnapshot,
  ActivityExport,
  Portfolio,
  PortfolioPeriod,
  TerminalEvents,
  EventName,
} from '../../shared/contract';
import type { EventHub } from '../ipc/event-hub';
import type { TerminalServices } from '../ipc/services';

type PortfolioAccess = NonNullable<TerminalServices['portfolio']>;

/** What the ledger builds for one account: everything of the portfolio but whose it is and when. */
export type PortfolioFigures = Omit<Portfolio, 'address' | 'wallet' | 'asOf'>;

/** The ledger behind the view (ledger-figures.ts builds it over the toolkit's portfolio engine). */
export interface PortfolioLedger {
  figures(address: string, period: PortfolioPeriod): Promise<PortfolioFigures>;
  /** The account's activity from `fromMs` (inclusive) to `toMs` (exclusive) as accounting CSV. */
  activityCsv(address: string, fromMs: number, toMs: number): Promise<{ csv: string; rows: number }>;
}

export interface PortfolioServiceOptions {
  ledger: PortfolioLedger;
  /** The Polymarket account a wallet trades from (the one the order flow resolves). */
  accountOf(wallet: string): Promise<string>;
  hub?: EventHub;
  /** Polymarket's accounting snapshot of an address (its Data API's ZIP); absent where the source has none. */
  snapshot?: (address: string) => Promise<Uint8Array>;
  /** How long a built portfolio is kept (ms); 30 s when absent. */
  keepMs?: number;
  now?: () => number;
}

/** The hub client the service listens as (main's own clients are named `main:`). */
export const PORTFOLIO_CLIENT = 'main:portfolio';
const KEEP_MS = 30_000;
const DAY_MS = 86_400_000;
/** A year and a day: a longer export is refused (a tax year fits; the Data API pages the rest too slowly). */
export const MAX_EXPORT_DAYS = 367;

interface Kept {
  at: number;
  figures: Promise<PortfolioFigures>;
}

export class PortfolioService implements PortfolioAccess {
  private readonly kept = new Map<string, Kept>();
  private readonly disconnect: (() => void) | undefined;
  private readonly keepMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PortfolioServiceOptions) {
    this.keepMs = options.keepMs ?? KEEP_MS;
    this.now = options.now ?? Date.now;
    // A fill, an order matched or a money action sent changes the account's book: what was kept is dropped, so
    // the next read builds it again. Which wallet's account it was is not worth a chain read here: the cache is small.
    this.disconnect = options.hub?.connect(PORTFOLIO_CLIENT, (event, payload) => this.heard(event, payload));
  }

  private heard<E extends EventName>(event: E, payload: TerminalEvents[E]): void {
    if (event === 'account' || event === 'orderUpdate') this.forget();
    else if (event === 'notice' && (payload as TerminalEvents['notice']).txHash) this.forget();
    else if (event === 'network') this.forget();
  }

  /** Drops every kept portfolio (all of one address when given). */
  forget(address?: string): void {
    if (address === undefined) return this.kept.clear();
    const prefix = `${address.toLowerCase()}|`;
    for (const key of [...this.kept.keys()]) if (key.startsWith(prefix)) this.kept.delete(key);
  }

  async portfolio(input: {
    wallet?: string;
    address?: string;
    period: PortfolioPeriod;
    fresh?: boolean;
  }): Promise<Portfolio> {
    const address = await this.whose(input);
    const key = `${address.toLowerCase()}|${input.period}`;
    const now = this.now();
    let kept = this.kept.get(key);
    if (!kept || input.fresh || now - kept.at >= this.keepMs) {
      kept = { at: now, figures: this.options.ledger.figures(address, input.period) };
      this.kept.set(key, kept);
      // A failed build is not kept: the next read tries again.
      const mine = kept;
      mine.figures.catch(() => {
        if (this.kept.get(key) === mine) this.kept.delete(key);
      });
    }
    const figures = await kept.figures;
    return { address, wallet: input.wallet ?? null, asOf: kept.at, ...figures };
  }

  async exportActivity(input: {
    wallet?: string;
    address?: string;
    from: string;
    to: string;
  }): Promise<ActivityExport> {
    const fromMs = Date.parse(`${input.from}T00:00:00Z`);
    // The last day is included: up to the start of the day after it.
    const toMs = Date.parse(`${input.to}T00:00:00Z`) + DAY_MS;
    if (!(fromMs < toMs))
      throw new PmDeskError(ErrorCode.INVALID_PARAMETER, 'The first day of the export must not be after its last.', {
        methodName: 'exportActivity',
      });
    if ((toMs - fromMs) / DAY_MS > MAX_EXPORT_DAYS)
      throw new PmDeskError(
        ErrorCode.INVALID_PARAMETER,
        `An export covers at most ${MAX_EXPORT_DAYS} days; export a longer stretch in parts.`,
        { methodName: 'exportActivity' },
      );
    const address = await this.whose(input);
    const { csv, rows } = await this.options.ledger.activityCsv(address, fromMs, toMs);
    return {
      address,
      fileName: `activity-${address.slice(2, 10).toLowerCase()}-${input.from}-to-${input.to}.csv`,
      csv,
      rows,
      from: input.from,
      to: input.to,
    };
  }

  async accountingSnapshot(input: { wallet?: string; address?: string }): Promise<AccountingSnapshot> {
    const read = this.options.snapshot;
    if (!read)
      throw new PmDeskError(
        ErrorCode.NOT_AVAILABLE,
        "Polymarket's accounting snapshot is read from its Data API, and this network reads the aggregator.",
        { methodName: 'downloadAccountingSnapshot' },
      );
    const address = await this.whose(input);
    const zip = await read(address);
    return {
      address,
      fileName: `polymarket-snapshot-${address.slice(2, 10).toLowerCase()}-${new Date(this.now()).toISOString().slice(0, 10)}.zip`,
      zipBase64: Buffer.from(zip).toString('base64'),
      bytes: zip.byteLength,
    };
  }

  close(): void {
    this.disconnect?.();
    this.kept.clear();
  }

  private async whose(input: { wallet?: string; address?: string }): Promise<string> {
    if (input.address !== undefined) return input.address;
    if (input.wallet === undefined)
      throw new PmDeskError(ErrorCode.INVALID_PARAMETER, 'Name a wallet or an address.', { methodName: 'portfolio' });
    return this.options.accountOf(input.wallet);
  }
}
