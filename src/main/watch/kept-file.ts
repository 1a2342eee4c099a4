// A small JSON file in the data folder that alerts and stops are kept in: read once and validated with zod (a
// corrupt or hand-broken file is set aside as `.bad` and the terminal starts empty, never fails to start), and
// written whole, one write at a time, atomically (a crash leaves the old file or the new one).
import { mkdir, readFile, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { z } from 'zod';
import type { Logger } from '@pmdesk/toolkit';
import { PRIVATE_DIR_MODE, removeStaleTempFiles, writeFileAtomic } from '../wallets/atomic-file';

export class KeptFile<T> {
  readonly file: string;
  private loaded: Promise<T> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dataDir: string,
    name: string,
    private readonly schema: z.ZodType<T>,
    private readonly empty: () => T,
    private readonly logger?: Logger,
  ) {
    this.file = join(dataDir, name);
  }

  read(): Promise<T> {
    this.loaded ??= this.load();
    return this.loaded;
  }

  /** Changes the contents and writes the whole file; answers what was written. */
  update(change: (current: T) => T): Promise<T> {
    const run = this.queue.then(async () => {
      const next = this.schema.parse(change(await this.read()));
      await mkdir(this.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      await writeFileAtomic(this.file, `${JSON.stringify(next, null, 2)}\n`);
      this.loaded = Promise.resolve(next);
      return next;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves once every write asked for so far has landed (or failed): a closing terminal waits for it. */
  settled(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  private async load(): Promise<T> {
    // Temp files of this file left by a process killed mid-write: cleared once old enough to be nobody's.
    const name = basename(this.file);
    const removed = await removeStaleTempFiles(this.dataDir, (target) => target === name);
    if (removed.length > 0)
      this.logger?.warn(`Removed ${removed.length} temp file(s) of ${this.file} left by an interrupted write.`);
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this.empty();
      this.logger?.warn(`${this.file} could not be read (${(error as Error).message}): starting empty.`);
      return this.empty();
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.setAside('it is not JSON');
    }
    const parsed = this.schema.safeParse(json);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    return this.setAside(`${issue.path.join('.') || 'the file'}: ${issue.message}`);
  }

  private async setAside(why: string): Promise<T> {
    const bad = `${this.file}.bad`;
    await rename(this.file, bad).catch(() => undefined);
    this.logger?.warn(
      `${this.file} could not be read (${why}): PM Desk starts without it and kept the old file as ${bad}.`,
    );
    return this.empty();
  }
}
