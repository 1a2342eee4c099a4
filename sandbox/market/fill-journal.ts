// The sandbox's real fills (never the generated history) in an append-only JSON-lines file in the data folder,
// so tapes and candles keep what traders did across a restart.
import { appendFile, readFile } from 'node:fs/promises';
import type { MarketData } from './market-data';

/** Puts the journal's fills back into the tapes; a missing file is a first start, an unreadable line is skipped. */
export async function loadFillJournal(
  file: string,
  marketData: MarketData,
  log: (line: string) => void,
): Promise<number> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  const fills: { tokenId: string; fill: { price: number; volumeBase: number; timestamp: number } }[] = [];
  let skipped = 0;
  for (const line of raw.split('\n')) {
    if (!line.trim()) continue;
    try {
      const row = JSON.parse(line) as { tokenId?: unknown; price?: unknown; volumeBase?: unknown; timestamp?: unknown };
      const { tokenId, price, volumeBase, timestamp } = row;
      if (
        typeof tokenId !== 'string' ||
        typeof price !== 'number' ||
        typeof volumeBase !== 'number' ||
        typeof timestamp !== 'number'
      )
        throw new Error('bad row');
      fills.push({ tokenId, fill: { price, volumeBase, timestamp } });
    } catch {
      // A crash mid-append leaves at most a torn last line: losing that one fill beats losing the tape.
      skipped++;
    }
  }
  const restored = marketData.restoreFills(fills);
  log(`${restored} real fills restored from ${file}${skipped ? ` (${skipped} unreadable lines skipped)` : ''}`);
  return restored;
}

/** Appends every new fill to the journal, in order, one write per burst; `stop()` waits for the last write. */
export function journalFills(
  file: string,
  marketData: MarketData,
  log: (line: string) => void,
): { stop(): Promise<void> } {
  let pending: string[] = [];
  let writing: Promise<void> = Promise.resolve();
  let failed = false;
  const flush = async () => {
    if (!pending.length) return;
    const text = pending.join('');
    pending = [];
    try {
      await appendFile(file, text, { mode: 0o600 });
    } catch (error) {
      if (!failed) log(`could not append fills to ${file}: ${error instanceof Error ? error.message : String(error)}`);
      failed = true;
    }
  };
  const unsubscribe = marketData.onFill((tokenId, fill) => {
    pending.push(
      `${JSON.stringify({ tokenId, price: fill.price, volumeBase: fill.volumeBase, timestamp: fill.timestamp })}\n`,
    );
    writing = writing.then(flush);
  });
  return {
    async stop() {
      unsubscribe();
      await writing;
    },
  };
}
