// Browser mode put together: the terminal's services over a signer worker thread, the host serving the built
// renderer, and the line the trader (or a script) waits for. The Electron app runs the same services; only
// the shell differs.
import { spawn } from 'node:child_process';
import { CredentialVault } from '../credentials/api-credentials';
import { openOrderFlow } from '../terminal/order-flow';
import { allowOrigins } from '../ipc/router';
import { openTerminal, type TerminalOptions } from '../terminal/terminal';
import { parseAppProfile } from '../settings/profile';
import type { EventHub } from '../ipc/event-hub';
import type { Logger } from '@pmdesk/toolkit';
import { resolveDataDir } from '../wallets/data-dir';
import { startSignerThread } from '../wallets/signer-thread';
import { startHost, type RunningHost } from './server';

export interface BrowserModeOptions {
  /** A network profile (the sandbox's, or a file's content). */
  profile: unknown;
  rendererDir: string;
  port?: number;
  dataDir?: string;
  /** Where API credentials are kept; the OS keychain (or memory, when there is none) unless given. */
  vault?: CredentialVault;
  logger?: Logger;
  /** How often the region and close-only checks run again (5 minutes unless told; tests shorten it). */
  regionCheckMs?: number;
  /** Alerts' and stops' timings (tests shorten them). */
  watchTuning?: TerminalOptions['watchTuning'];
}

export interface BrowserMode {
  host: RunningHost;
  /** The hub every connected page hears events from (the frame benchmark pushes book updates through it). */
  hub: EventHub;
  readyLine: string;
  stop(): Promise<void>;
}

/** The exact line printed when browser mode is ready. */
export const readyLine = (launchUrl: string): string => `PM Desk is running at ${launchUrl}`;

export async function startBrowserMode(options: BrowserModeOptions): Promise<BrowserMode> {
  const profile = parseAppProfile(options.profile);
  // The page's origin is known only once the port is; the policy reads it when a request arrives.
  let appOrigin = '';
  // API credentials in the OS keychain, or for this session only where there is none (said once, plainly).
  const vault =
    options.vault ?? (await CredentialVault.open({ onWarning: (warning) => options.logger?.warn(warning.detail) }));
  const terminal = openTerminal({
    profile,
    rawProfile: options.profile,
    shell: 'browser',
    allowSender: (sender) => allowOrigins([appOrigin])(sender),
    // Settings and custom networks live beside the wallets, in the data folder.
    wallets: { dataDir: resolveDataDir({ flag: options.dataDir }), signer: startSignerThread() },
    // Each network the trader switches to gets its own order flow, with the same credential vault.
    openOrderFlow: (raw, markets, exchangeWatch) => openOrderFlow(raw, vault, options.logger, markets, exchangeWatch),
    logger: options.logger,
    regionCheckMs: options.regionCheckMs,
    watchTuning: options.watchTuning,
  });
  let host: RunningHost;
  try {
    host = await startHost({
      router: terminal.router,
      hub: terminal.hub,
      rendererDir: options.rendererDir,
      port: options.port,
      onConnect: (clientId) => terminal.hub.emit('network', terminal.services.network, [clientId]),
    });
  } catch (error) {
    await terminal.close();
    throw error;
  }
  appOrigin = host.origin;
  return {
    host,
    hub: terminal.hub,
    readyLine: readyLine(host.launchUrl),
    stop: async () => {
      await host.stop();
      await terminal.close();
    },
  };
}

/** Opens a URL in the default browser; false when there is no way to (a headless machine). */
export function openInBrowser(url: string, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  const [command, args] =
    platform === 'darwin'
      ? ['open', [url]]
      : platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
