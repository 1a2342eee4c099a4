// Wrong-password throttling (Ledger Live's rule): five free attempts, then a wait that doubles from 1 s up to
// 30 s before each further attempt. Attempts on one wallet run one at a time, so firing many in parallel
// cannot skip a wait. Only counts and times are kept, never anything about the passwords themselves.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PRIVATE_DIR_MODE, writeFileAtomic } from './atomic-file';

export const FREE_ATTEMPTS = 5;
export const FIRST_WAIT_MS = 1_000;
export const MAX_WAIT_MS = 30_000;

/** What is remembered per wallet: how many wrong passwords in a row, and when the last one was. */
export interface AttemptRecord {
  failures: number;
  lastFailureAt: number;
}

/** Where attempt records live: memory for one process, or a file so a script cannot restart its way past a wait. */
export interface AttemptLedger {
  read(wallet: string): Promise<AttemptRecord | undefined>;
  write(wallet: string, record: AttemptRecord | undefined): Promise<void>;
}

export function memoryLedger(): AttemptLedger {
  const records = new Map<string, AttemptRecord>();
  return {
    read: async (wallet) => records.get(wallet),
    write: async (wallet, record) => {
      if (record) records.set(wallet, record);
      else records.delete(wallet);
    },
  };
}

/** The wait owed before the next attempt after `failures` wrong passwords in a row. */
export function waitAfter(failures: number): number {
  if (failures < FREE_ATTEMPTS) return 0;
  return Math.min(FIRST_WAIT_MS * 2 ** (failures - FREE_ATTEMPTS), MAX_WAIT_MS);
}

export interface ThrottleOptions {
  ledger?: AttemptLedger;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Told before each wait, so a UI or the CLI can say why nothing happens yet. */
  onWait?: (wallet: string, ms: number) => void;
}

/** A check that throws on a wrong password: anything else it throws counts as no attempt at all. */
export type PasswordCheck<T> = () => Promise<T>;

export class PasswordThrottle {
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly ledger: AttemptLedger;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly onWait: ((wallet: string, ms: number) => void) | undefined;

  constructor(options: ThrottleOptions = {}) {
    this.ledger = options.ledger ?? memoryLedger();
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.onWait = options.onWait;
  }

  /**
   * Runs `check` for `wallet` after any wait owed, one attempt per wallet at a time.
   * `isWrongPassword` tells a wrong password (counted) from any other failure (not counted).
   */
  attempt<T>(wallet: string, check: PasswordCheck<T>, isWrongPassword: (error: unknown) => boolean): Promise<T> {
    const previous = this.queues.get(wallet) ?? Promise.resolve();
    const run = previous.then(
      () => this.run(wallet, check, isWrongPassword),
      () => this.run(wallet, check, isWrongPassword),
    );
    const settled = run.catch(() => undefined);
    this.queues.set(wallet, settled);
    void settled.then(() => {
      if (this.queues.get(wallet) === settled) this.queues.delete(wallet);
    });
    return run;
  }

  private async run<T>(wallet: string, check: PasswordCheck<T>, isWrongPassword: (error: unknown) => boolean): Promise<T> {
    const record = await this.ledger.read(wallet);
    if (record) {
      const owed = waitAfter(record.failures) - (this.now() - record.lastFailureAt);
      if (owed > 0) {
        this.onWait?.(wallet, owed);
        await this.sleep(owed);
      }
    }
    try {
      const result = await check();
      if (record) await this.ledger.write(wallet, undefined);
      return result;
    } catch (error) {
      if (isWrongPassword(error)) {
        await this.ledger.write(wallet, { failures: (record?.failures ?? 0) + 1, lastFailureAt: this.now() });
      }
      throw error;
    }
  }
}

/** A ledger in one JSON file (written atomically), shared by every process that opens the same data folder. */
export function fileLedger(path: string): AttemptLedger {
  const load = async (): Promise<Record<string, AttemptRecord>> => {
    try {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, AttemptRecord>) : {};
    } catch {
      // Missing or unreadable: start from no failures rather than lock a trader out of their own wallet.
      return {};
    }
  };
  return {
    read: async (wallet) => {
      const record = (await load())[wallet];
      return record && Number.isInteger(record.failures) && Number.isFinite(record.lastFailureAt) ? record : undefined;
    },
    write: async (wallet, record) => {
      const all = await load();
      if (record) all[wallet] = record;
      else if (wallet in all) delete all[wallet];
      else return;
      await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
      await writeFileAtomic(path, `${JSON.stringify(all)}\n`);
    },
  };
}
