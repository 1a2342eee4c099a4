// The Data API's accounting snapshot (GET /v1/accounting/snapshot?user=, what @polymarket/client's
// downloadAccountingSnapshot reads): a ZIP of positions.csv and equity.csv built from the same holdings and
// closed positions /positions and /closed-positions answer. Polymarket documents the two files but not their
// columns; the sandbox's columns are its own, named in docs/sandbox.md.
import { crc32 } from 'node:zlib';
import type { V2ClosedLot } from './data-v2';
import { round } from './http';
import type { Holding } from './wallets';

/** One RFC 4180 field. */
function field(value: string | number | boolean): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csv(header: string[], rows: (string | number | boolean)[][]): string {
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

/** positions.csv (open and closed, one line per outcome) and equity.csv (one line: as of now) of a wallet. */
export function snapshotFiles(
  holdings: readonly Holding[],
  closed: readonly V2ClosedLot[],
  nowS: number,
): { name: string; text: string }[] {
  const open = holdings.map((h) => {
    const initial = round(h.size * h.avgPrice);
    const current = round(h.size * h.curPrice);
    return [
      'OPEN',
      h.market.conditionId,
      h.token.tokenId,
      h.market.question,
      h.token.name,
      h.size,
      h.avgPrice,
      h.curPrice,
      initial,
      current,
      round(current - initial),
      0,
    ];
  });
  const shut = closed.map((l) => {
    const token = l.market.tokens[l.tokenIndex]!;
    return [
      'CLOSED',
      l.market.conditionId,
      token.tokenId,
      l.market.question,
      token.name,
      0,
      round(l.avgPrice),
      l.curPrice,
      round(l.avgPrice * l.totalBought),
      0,
      0,
      l.realizedPnl,
    ];
  });
  const value = round(open.reduce((s, r) => s + (r[9] as number), 0));
  const unrealized = round(open.reduce((s, r) => s + (r[10] as number), 0));
  const realized = round(closed.reduce((s, l) => s + l.realizedPnl, 0));
  return [
    {
      name: 'positions.csv',
      text: csv(
        [
          'status',
          'conditionId',
          'asset',
          'title',
          'outcome',
          'size',
          'avgPrice',
          'curPrice',
          'initialValue',
          'currentValue',
          'cashPnl',
          'realizedPnl',
        ],
        [...open, ...shut],
      ),
    },
    {
      name: 'equity.csv',
      text: csv(
        ['timestamp', 'positionsValue', 'unrealizedPnl', 'realizedPnl'],
        [[new Date(nowS * 1000).toISOString(), value, unrealized, realized]],
      ),
    },
  ];
}

/** A ZIP archive of the files, stored (no compression), as any unzip reads it. */
export function zipFiles(files: readonly { name: string; text: string }[], nowS: number): Buffer {
  const date = new Date(nowS * 1000);
  const dosTime = (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1);
  const dosDate = ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate();
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name, 'utf8');
    const data = Buffer.from(file.text, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // names in UTF-8
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(0, 10);
    entry.writeUInt16LE(dosTime, 12);
    entry.writeUInt16LE(dosDate, 14);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
