// Durable file replacement for wallets: a process killed at any instant leaves the old file or the new one,
// never a torn one. Temp files live beside their target (same filesystem, so rename is atomic) and carry a
// name no reader mistakes for a wallet.
import { randomBytes } from 'node:crypto';
import { link, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Owner read/write only: a keystore is encrypted, but nobody else needs to copy it for an offline attack. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Temp files start with a dot and end with `.tmp`; listings skip both. */
export const TEMP_SUFFIX = '.tmp';
export function isTempFileName(name: string): boolean {
  return name.startsWith('.') || name.endsWith(TEMP_SUFFIX);
}

/**
 * A temp file older than this was left by a process killed mid-write: a live write (a few KB, one fsync) never
 * takes this long, so removing it cannot cut another process's write short.
 */
export const STALE_TEMP_MS = 10 * 60_000;

/**
 * Removes the temp files `writeFileAtomic` left in `dir` (a process killed between creating and renaming one)
 * that are older than STALE_TEMP_MS and that `belongs` claims (a store cleans only its own files' temps).
 * Answers the names removed. Never throws: a temp file left one more time is harmless.
 */
export async function removeStaleTempFiles(
  dir: string,
  belongs: (target: string) => boolean,
  now = Date.now(),
): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const target = /^\.(.+)\.[0-9a-f]{12}\.tmp$/.exec(name)?.[1];
    if (target === undefined || !belongs(target)) continue;
    try {
      if (now - (await stat(join(dir, name))).mtimeMs < STALE_TEMP_MS) continue;
      await unlink(join(dir, name));
      removed.push(name);
    } catch {
      // Gone already, or not ours to remove: left as it is.
    }
  }
  return removed;
}

/** The files whose stale temps this process has already looked for (each is looked for once, at its first read). */
const tempsCleared = new Set<string>();

/**
 * Once per process for each file: removes the temp files an interrupted `writeFileAtomic` of that one file left
 * beside it, once old enough to be nobody's (see removeStaleTempFiles). Called where a store first reads its file.
 */
export async function removeStaleTempsOf(path: string): Promise<string[]> {
  if (tempsCleared.has(path)) return [];
  tempsCleared.add(path);
  const name = basename(path);
  return removeStaleTempFiles(dirname(path), (target) => target === name);
}

/** Write to a temp file in the same folder, fsync it, rename it over the target, fsync the folder. */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  mode = PRIVATE_FILE_MODE,
): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  // 'wx': never follow or reuse an existing file; the mode applies at creation (before any byte is written).
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dir);
}

/**
 * Writes a file that must not exist yet (an export), just as atomically: the temp file is hard-linked into
 * place, which fails if the name is taken. Filesystems without hard links (FAT and exFAT USB sticks) get a
 * check and a rename instead.
 */
export async function writeNewFileAtomic(
  path: string,
  data: string | Uint8Array,
  mode = PRIVATE_FILE_MODE,
): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    try {
      await link(temp, path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
      const taken = await stat(path).then(
        () => true,
        () => false,
      );
      if (taken) throw Object.assign(new Error(`${path} exists`), { code: 'EEXIST' });
      await rename(temp, path);
    }
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  await syncDirectory(dir);
}

/** Removes a file and makes the removal durable. */
export async function removeFileDurably(path: string): Promise<void> {
  await unlink(path);
  await syncDirectory(dirname(path));
}

/** fsync on the folder makes a rename or unlink survive a power cut. Windows cannot open a folder for it. */
export async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
