// The sandbox chain launcher: anvil from npm on loopback with the sandbox's own chain id, stopped without
// leaving a process behind.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AMOY_CHAIN_ID,
  ANVIL_PACKAGE,
  SANDBOX_CHAIN_ID,
  findAnvil,
  startChain,
  type Chain,
} from '../../sandbox/chain/anvil.js';
import { startSandboxChain } from '../../sandbox/chain/index.js';

const started: Chain[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((chain) => chain.stop()));
});

async function start(options?: Parameters<typeof startChain>[0]): Promise<Chain> {
  const chain = await startChain(options);
  started.push(chain);
  return chain;
}

async function rpc(url: string, method: string): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
  });
  return ((await response.json()) as { result: unknown }).result;
}

/** Live (non-zombie) anvil processes whose parent is this test process. */
function anvilChildren(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid ..."
      const match = /^\d+ \((.*)\) (\S) (\d+)/.exec(stat);
      if (match && match[1] === 'anvil' && match[2] !== 'Z' && Number(match[3]) === process.pid)
        pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids.sort();
}

/** True while the process exists and is not a zombie (a killed child its new parent has not reaped yet). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ..."; Z is a zombie.
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('sandbox chain', () => {
  it('answers JSON-RPC on 127.0.0.1 with the sandbox chain id, which is neither Polygon nor Amoy', async () => {
    const chain = await start();
    expect(new URL(chain.rpcUrl).hostname).toBe('127.0.0.1');
    expect(chain.chainId).toBe(SANDBOX_CHAIN_ID);
    expect([137, 80002]).not.toContain(SANDBOX_CHAIN_ID);
    expect(await rpc(chain.rpcUrl, 'eth_chainId')).toBe(`0x${SANDBOX_CHAIN_ID.toString(16)}`);
  });

  it('stop() ends the anvil process and a second stop() is harmless', async () => {
    const chain = await start();
    expect(isRunning(chain.pid)).toBe(true);
    await chain.stop();
    expect(isRunning(chain.pid)).toBe(false);
    await chain.stop();
    await expect(rpc(chain.rpcUrl, 'eth_chainId')).rejects.toThrow();
  });

  it('starts with Amoy’s chain id 80002 when asked, for compatibility tests', async () => {
    const chain = await start({ chainId: AMOY_CHAIN_ID });
    expect(await rpc(chain.rpcUrl, 'eth_chainId')).toBe('0x13882');
  });

  it('refuses Polygon’s chain id 137', async () => {
    await expect(startChain({ chainId: 137 })).rejects.toThrow(/never runs with Polygon/);
  });

  it('runs two chains side by side on different free ports', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    expect(a.rpcUrl).not.toBe(b.rpcUrl);
    expect(await rpc(a.rpcUrl, 'eth_blockNumber')).toBe('0x0');
    expect(await rpc(b.rpcUrl, 'eth_blockNumber')).toBe('0x0');
  });

  it('on Linux, anvil dies with the process that started it, even when that process is SIGKILLed', async () => {
    const anvilModule = fileURLToPath(new URL('../../sandbox/chain/anvil.ts', import.meta.url));
    const script = `import { startChain } from ${JSON.stringify(anvilModule)};
      const chain = await startChain();
      process.stdout.write(String(chain.pid) + '\\n');
      setInterval(() => {}, 60_000);`;
    const host = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let anvilPid = -1;
    try {
      const [firstLine] = (await once(host.stdout, 'data')) as [Buffer];
      anvilPid = Number(firstLine.toString().trim());
      expect(isRunning(anvilPid)).toBe(true);
      host.kill('SIGKILL');
      await once(host, 'exit');
      // The kernel delivers the parent-death signal asynchronously; wait for it rather than for a fixed time,
      // but give up before the test's own timeout so the finally block still cleans up.
      const giveUpAt = Date.now() + 20_000;
      while (isRunning(anvilPid) && Date.now() < giveUpAt) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(isRunning(anvilPid)).toBe(false);
    } finally {
      host.kill('SIGKILL');
      if (anvilPid > 0 && isRunning(anvilPid)) process.kill(anvilPid, 'SIGKILL');
    }
  });

  it('finds anvil in the npm package first', () => {
    expect(findAnvil()).toContain(join('node_modules', ANVIL_PACKAGE, 'bin', 'anvil'));
  });

  it('falls back to an anvil on PATH, and says plainly when there is none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pmdesk-anvil-'));
    try {
      expect(() => findAnvil('@pmdesk/no-such-package', dir)).toThrow(/anvil not found: .* install Foundry/);
      writeFileSync(join(dir, 'anvil'), '');
      expect(findAnvil('@pmdesk/no-such-package', dir)).toBe(join(dir, 'anvil'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('startSandboxChain starts anvil and deploys in one call, and stops it', async () => {
    const sandbox = await startSandboxChain({ orderVersion: 1 });
    try {
      expect(sandbox.orderVersion).toBe(1);
      expect(await rpc(sandbox.rpcUrl, 'eth_chainId')).toBe(`0x${SANDBOX_CHAIN_ID.toString(16)}`);
      const code = await fetch(sandbox.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'eth_getCode',
          params: [sandbox.contracts.exchange, 'latest'],
        }),
      });
      expect(((await code.json()) as { result: string }).result.length).toBeGreaterThan(2);
    } finally {
      await sandbox.stop();
    }
    expect(isRunning(sandbox.pid)).toBe(false);
  });

  it('startSandboxChain stops anvil when deployment fails', async () => {
    const before = anvilChildren();
    // Amoy addresses on a non-Amoy chain id: the deployment refuses after anvil has started.
    await expect(startSandboxChain({ addresses: 'amoy' })).rejects.toThrow(/chain id 80002/);
    expect(anvilChildren()).toEqual(before);
  });

  it('with a state file, a restarted chain keeps its contracts, balances and blocks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pmdesk-chain-'));
    const stateFile = join(dir, 'chain.json');
    try {
      const first = await startSandboxChain({ stateFile });
      const wallet = first.testWallets[0]!.address;
      const blockBefore = await rpc(first.rpcUrl, 'eth_blockNumber');
      await first.stop();

      const second = await start({ stateFile });
      expect(await rpc(second.rpcUrl, 'eth_blockNumber')).toBe(blockBefore);
      const call = async (method: string, params: unknown[]): Promise<string> => {
        const response = await fetch(second.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        });
        return ((await response.json()) as { result: string }).result;
      };
      expect((await call('eth_getCode', [first.contracts.exchange, 'latest'])).length).toBeGreaterThan(2);
      // balanceOf(wallet) on the collateral: 100 000 units of 6 decimals.
      const balanceOf = `0x70a08231${wallet.slice(2).toLowerCase().padStart(64, '0')}`;
      expect(BigInt(await call('eth_call', [{ to: first.contracts.collateral, data: balanceOf }, 'latest']))).toBe(
        100_000_000_000n,
      );
      // Stopped here, before its folder goes, because stopping writes the state file.
      await second.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a binary that cannot run fails start with an error, not a crash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pmdesk-anvil-'));
    try {
      const notExecutable = join(dir, 'anvil');
      writeFileSync(notExecutable, 'not a program');
      await expect(startChain({ anvilPath: notExecutable })).rejects.toThrow(
        /anvil (exited before listening|could not be started)/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('listens on the port it is given', async () => {
    const probe = await start();
    const port = Number(new URL(probe.rpcUrl).port);
    await probe.stop();
    const chain = await start({ port });
    expect(chain.rpcUrl).toBe(`http://127.0.0.1:${port}`);
  });
});
