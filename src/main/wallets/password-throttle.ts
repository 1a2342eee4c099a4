// Wrong-password throttling (Ledger Live's rule): five free attempts, then a wait that doubles from 1 s up to
// 30 s before each further attempt. Attempts on one wallet run one at a time, so firing many in parallel
// cannot skip a wait — within a process through a queue, across processes (parallel CLI runs, the app and the
// CLI on one data folder) through a lock file held from reading the count to writing it back. Only counts and
// times are kept, never anything about the passwords themselves.
import { mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PRIVATE_DIR_MODE, removeStaleTempsOf, writeFileAtomic } from './atomic-file';

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
  /**
   * Runs one whole attempt (read, wait, check, write) so that no other process's attempt interleaves with it;
   * a ledger only one process sees needs none.
   */
  exclusive?<T>(work: () => Promise<T>): Promise<T>;
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

  private run<T>(wallet: string, check: PasswordCheck<T>, isWrongPassword: (error: unknown) => boolean): Promise<T> {
    const attempt = () => this.runAlone(wallet, check, isWrongPassword);
    return this.ledger.exclusive ? this.ledger.exclusive(attempt) : attempt();
  }

  private async runAlone<T>(
    wallet: string,
    check: PasswordCheck<T>,
    isWrongPassword: (error: unknown) => boolean,
  ): Promise<T> {
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

/** How long a lock may be held before another process takes it as left behind by a crash: past any wait and check. */
export const STALE_LOCK_MS = MAX_WAIT_MS + 90_000;
const LOCK_POLL_MS = 25;

/**
 * An exclusive lock between processes: a file created with O_EXCL holding the owner's pid. A lock whose owner
 * is gone (killed mid-attempt) or that is older than any attempt can take is removed, so a crash never locks
 * a trader out of their wallet.
 */
export async function withFileLock<T>(
  lockPath: string,
  work: () => Promise<T>,
  sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)),
): Promise<T> {
  await mkdir(dirname(lockPath), { recursive: true, mode: PRIVATE_DIR_MODE });
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await isStaleLock(lockPath)) await unlink(lockPath).catch(() => undefined);
      else await sleep(LOCK_POLL_MS);
    }
  }
  try {
    return await work();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}

async function isStaleLock(lockPath: string): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    if (Date.now() - info.mtimeMs > STALE_LOCK_MS) return true;
    const pid = Number(text);
    // An empty file is a lock being written this instant: not stale.
    if (!Number.isInteger(pid) || pid <= 0) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  } catch {
    // Gone already: the next try creates it.
    return false;
  }
}

/** A ledger in one JSON file (written atomically), shared by every process that opens the same data folder. */
export function fileLedger(path: string): AttemptLedger {
  const load = async (): Promise<Record<string, AttemptRecord>> => {
    // Temp files of the ledger left by a process killed mid-write: cleared once old enough to be nobody's.
    await removeStaleTempsOf(path);
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
    exclusive: (work) => withFileLock(`${path}.lock`, work),
  };
}
