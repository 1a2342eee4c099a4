// Runs the real `pmdesk` CLI (bin/pmdesk.mjs) as its own process, for black-box tests: its exit code, what it
// printed, optional standard input, and a hook to act on the running process (signals, say).
import { spawn, type ChildProcess } from 'node:child_process';

export interface PmdeskRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface PmdeskOptions {
  /** Added to the environment: PATH alone by default, the whole of this process's with `inheritEnv`. */
  env?: Record<string, string | undefined>;
  /** The whole environment (a keychain test needs this session's D-Bus address). */
  inheritEnv?: boolean;
  /** Written to standard input, which is then closed; without it standard input is ignored. */
  input?: string;
  during?: (child: ChildProcess) => void;
}

export function runPmdesk(args: string[], options: PmdeskOptions = {}): Promise<PmdeskRun> {
  return new Promise((resolve, reject) => {
    const base = options.inheritEnv ? { ...process.env } : { PATH: process.env.PATH ?? '' };
    const child = spawn(process.execPath, ['bin/pmdesk.mjs', ...args], {
      env: { ...base, ...options.env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (options.input !== undefined) child.stdin!.end(options.input);
    options.during?.(child);
  });
}
