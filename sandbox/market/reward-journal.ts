// Every liquidity-reward payment the sandbox made, kept in an append-only JSON-lines file in the data folder so
// earnings, the Data API's REWARD activity and the chain's transfers still agree after a restart. Without a file
// (tests, a throwaway sandbox) the journal lives in memory only.
import { appendFile, readFile } from 'node:fs/promises';

export interface RewardPayment {
  /** The UTC day the payment is for (YYYY-MM-DD): the sandbox day that ended. */
  day: string;
  /** Unix seconds, when the transfer was mined. */
  paidAt: number;
  marketId: string;
  conditionId: string;
  /** The order's maker address (the account that holds the funds), checksummed. */
  maker: string;
  /** Collateral paid, in base units (6 decimals). */
  amount: bigint;
  /** The maker's share of the market's weight that day, in percent. */
  share: number;
  /** The collateral transfer from the rewards funder. */
  transactionHash: string;
}

type Row = Omit<RewardPayment, 'amount'> & { amount: string };

export class RewardJournal {
  private readonly rows: RewardPayment[] = [];
  private writing: Promise<void> = Promise.resolve();
  private failed = false;

  constructor(
    private readonly file: string | undefined,
    private readonly log: (line: string) => void = () => {},
  ) {}

  /** Reads the file back; a missing file is a first start, an unreadable line (a torn last write) is skipped. */
  async load(): Promise<number> {
    if (!this.file) return 0;
    let raw: string;
    try {
      raw = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let skipped = 0;
    for (const line of raw.split('\n')) {
      if (!line.trim()) continue;
      try {
        this.rows.push(parseRow(JSON.parse(line) as Partial<Row>));
      } catch {
        skipped++;
      }
    }
    this.log(`${this.rows.length} reward payments restored from ${this.file}${skipped ? ` (${skipped} skipped)` : ''}`);
    return this.rows.length;
  }

  /** Records a payment (and appends it to the file, in order). */
  record(payment: RewardPayment): void {
    this.rows.push(payment);
    if (!this.file) return;
    const file = this.file;
    const text = `${JSON.stringify({ ...payment, amount: payment.amount.toString() } satisfies Row)}\n`;
    this.writing = this.writing.then(async () => {
      try {
        await appendFile(file, text, { mode: 0o600 });
      } catch (error) {
        if (!this.failed) this.log(`could not append a reward payment to ${file}: ${(error as Error).message}`);
        this.failed = true;
      }
    });
  }

  /** Every payment, oldest first. */
  payments(): readonly RewardPayment[] {
    return this.rows;
  }

  /** The payments to any of `makers` (lower-case compared). */
  paymentsTo(makers: (address: string) => boolean): RewardPayment[] {
    return this.rows.filter((p) => makers(p.maker));
  }

  /** Waits for the last append. */
  async flush(): Promise<void> {
    await this.writing;
  }
}

function parseRow(row: Partial<Row>): RewardPayment {
  const { day, paidAt, marketId, conditionId, maker, amount, share, transactionHash } = row;
  if (
    typeof day !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}$/.test(day) ||
    typeof paidAt !== 'number' ||
    typeof marketId !== 'string' ||
    typeof conditionId !== 'string' ||
    typeof maker !== 'string' ||
    typeof amount !== 'string' ||
    !/^\d+$/.test(amount) ||
    typeof share !== 'number' ||
    typeof transactionHash !== 'string'
  )
    throw new Error('bad reward row');
  return { day, paidAt, marketId, conditionId, maker, amount: BigInt(amount), share, transactionHash };
}
