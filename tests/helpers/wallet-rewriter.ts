// Child process for the kill -9 test: rewrites wallet files as fast as it can (renames toggle each label, a
// fourth wallet is added and removed), printing one line per finished write, until it is killed.
import { readFile } from 'node:fs/promises';
import { WalletStore } from '../../src/main/wallets/wallet-store';

const [dir, extraKeystoreFile] = process.argv.slice(2) as [string, string];
const store = new WalletStore(dir);
const extra = await readFile(extraKeystoreFile, 'utf8');

for (let round = 0; ; round++) {
  for (const entry of await store.list()) {
    if (entry.label === 'Extra') continue;
    const next = entry.label.endsWith('*') ? entry.label.slice(0, -1) : `${entry.label}*`;
    await store.rename(entry.label, next);
    process.stdout.write(`renamed ${round}\n`);
  }
  const present = (await store.list()).find((e) => e.label === 'Extra');
  if (present) await store.remove(present);
  else await store.add('Extra', extra);
  process.stdout.write(`toggled ${round}\n`);
}
