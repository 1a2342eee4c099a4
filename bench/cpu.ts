// CPU time of the machine's other processes by name, read from /proc (Linux): the benches share two cores
// between the exchange, the terminal's main and the browser, and print what each took while they measured.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** A /proc stat line's command name and CPU ticks (user + system), or undefined if it is gone. */
function readStat(path: string): { comm: string; ticks: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(path, 'utf8');
  } catch {
    return undefined; // gone since the listing
  }
  // "pid (comm) state …": comm may hold spaces and parentheses, so the fields are counted after its last ')'.
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after comm (state is the first).
  return { comm: stat.slice(stat.indexOf('(') + 1, close), ticks: Number(fields[11]) + Number(fields[12]) };
}

function processIds(): string[] | undefined {
  try {
    return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
}

/** User + system CPU time (ms) of every process whose command name contains `name`, or undefined off Linux. */
export function cpuMsOf(name: string): number | undefined {
  const pids = processIds();
  if (!pids) return undefined;
  let ticks = 0;
  for (const pid of pids) {
    const stat = readStat(`/proc/${pid}/stat`);
    if (stat?.comm.includes(name)) ticks += stat.ticks;
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * CPU time (ms) of the main thread of each of Chromium's renderer processes, by process id (the page's
 * JavaScript, style, layout and paint run there), or undefined off Linux.
 */
export function rendererMainThreadsMs(): Map<string, number> | undefined {
  const pids = processIds();
  if (!pids) return undefined;
  const found = new Map<string, number>();
  for (const pid of pids) {
    let command: string;
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    // Chromium rewrites its children's command lines, so the type is found in the text rather than by argument.
    if (!command.includes('--type=renderer')) continue;
    const main = readStat(`/proc/${pid}/task/${pid}/stat`);
    if (main) found.set(pid, (main.ticks * 1000) / TICKS_PER_SECOND);
  }
  return found;
}

/** The whole machine's CPU time (ms, all cores) left idle and taken by the host, or undefined off Linux. */
export function machineCpuMs(): { idle: number; stolen: number } | undefined {
  let line: string;
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  } catch {
    return undefined;
  }
  // cpu  user nice system idle iowait irq softirq steal …: idle and iowait are fields 4 and 5, steal 8.
  const [idle, iowait, , , steal] = line.trim().split(/\s+/).slice(4, 9).map(Number) as number[];
  const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
  return { idle: ms(idle! + iowait!), stolen: ms(steal!) };
}
