// Electron main: the thin glue that applies src/main/app's policies and starts the same services as browser
// mode. Lifecycle and single instance, the app:// protocol, one window factory, the router on ipcMain, the
// signer in a utility process, API credentials in safeStorage or the keychain. Decisions live in the pure
// modules beside it (window-policy, guards, hardening, app-protocol, menu, safe-storage-store), which are tested.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BrowserWindow,
  Menu,
  app,
  dialog,
  ipcMain,
  protocol,
  safeStorage,
  session,
  shell,
  utilityProcess,
  type IpcMainInvokeEvent,
} from 'electron';
import { IPC_EVENT_CHANNEL, ipcChannel } from '../../shared/contract';
import { CredentialVault } from '../credentials/api-credentials';
import { openOrderFlow } from '../terminal/order-flow';
import { startupProfileFile } from '../settings/profile';
import { readLaunchProfile } from '../settings/launch-profile';
import { allowOrigins, registerRouter } from '../ipc/router';
import { openTerminal, type Terminal } from '../terminal/terminal';
import { consoleLogger } from '@pmdesk/toolkit';
import { resolveDataDir } from '../wallets/data-dir';
import { SignerClient } from '../wallets/signer-client';
import { appResponse } from './app-protocol';
import { senderFromFrame } from './guards';
import { hardenApp, type HookableApp } from './hardening';
import { applicationMenu } from './menu';
import { SafeStorageSecretStore, useSafeStorage } from './safe-storage-store';
import { utilityProcessTransport } from './signer-utility';
import { electronNotifier } from './notifier';
import { APP_ENTRY_URL, APP_ORIGIN, APP_SCHEME, mainWindowOptions } from './window-policy';

const here = import.meta.dirname;
const rendererDir = join(here, '../renderer');

// Must precede `ready`: app:// behaves as a secure, standard origin (fetch, CSP 'self', localStorage).
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);
app.enableSandbox();

let mainWindow: BrowserWindow | undefined;
let terminal: Terminal | undefined;
let disposeRouter: (() => void) | undefined;

function createMainWindow(current: Terminal): BrowserWindow {
  const window = new BrowserWindow(
    mainWindowOptions({
      preloadPath: join(here, '../preload/index.cjs'),
      packaged: app.isPackaged,
      icon: join(rendererDir, 'icon.png'),
    }),
  );
  const clientId = `window-${window.id}`;
  const disconnect = current.hub.connect(clientId, (event, payload) => {
    if (!window.isDestroyed()) window.webContents.send(IPC_EVENT_CHANNEL, { event, payload });
  });
  window.on('closed', disconnect);
  window.once('ready-to-show', () => window.show());
  window.webContents.once('did-finish-load', () => current.hub.emit('network', current.services.network, [clientId]));
  void window.loadURL(APP_ENTRY_URL);
  return window;
}

function senderOf(event: IpcMainInvokeEvent) {
  const frame = event.senderFrame;
  return senderFromFrame(
    frame,
    !!frame && frame === event.sender.mainFrame,
    `window-${BrowserWindow.fromWebContents(event.sender)?.id ?? 'unknown'}`,
  );
}

/** The app:// protocol: the built renderer's files with the CSP, nothing else (app-protocol.ts decides). */
function serveApp(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const answer = appResponse(rendererDir, request.method, request.url);
    if (answer.status !== 200) return new Response(null, { status: answer.status, headers: answer.headers });
    try {
      return new Response(await readFile(answer.file), { status: 200, headers: answer.headers });
    } catch {
      return new Response(null, { status: 404, headers: answer.headers });
    }
  });
}

async function openCredentials(dataDir: string): Promise<CredentialVault> {
  const available = await safeStorage.isAsyncEncryptionAvailable().catch(() => false);
  const backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : undefined;
  if (!useSafeStorage(available, process.platform, backend))
    return CredentialVault.open({ onWarning: (w) => consoleLogger.warn(w.detail) });
  const cipher = {
    encrypt: (text: string) => safeStorage.encryptStringAsync(text),
    decrypt: async (sealed: Buffer) => (await safeStorage.decryptStringAsync(sealed)).result,
  };
  return CredentialVault.open({
    keychain: new SafeStorageSecretStore(join(dataDir, 'api-credentials.safe.json'), cipher),
  });
}

async function start(): Promise<void> {
  await app.whenReady();
  // Electron's overloaded `on` is wider than the one event hardening.ts hooks.
  hardenApp({
    app: app as unknown as HookableApp,
    session: session.defaultSession,
    openExternal: (url) => void shell.openExternal(url),
  });
  serveApp();
  Menu.setApplicationMenu(Menu.buildFromTemplate(applicationMenu(process.platform, app.isPackaged)));

  // The CLI's folder (PMDESK_DATA_DIR, else ~/.config/pmdesk and its kin), not Electron's userData, whose name
  // follows the product name: the app and `pmdesk` must see the same wallets.
  const dataDir = resolveDataDir();
  // No profile given: Polygon on Polymarket's public endpoints (settings/launch-profile.ts).
  const { raw: rawProfile, profile } = await readLaunchProfile(
    startupProfileFile(process.argv, process.env, dataDir, existsSync),
  );
  const token = randomBytes(32).toString('hex');
  const child = utilityProcess.fork(join(here, 'signer-utility.js'), [], { serviceName: 'PM Desk signer' });
  const signer = new SignerClient(utilityProcessTransport(child, token), token);
  const vault = await openCredentials(dataDir);

  terminal = openTerminal({
    profile,
    shell: 'electron',
    allowSender: allowOrigins([APP_ORIGIN]),
    wallets: { dataDir, signer },
    rawProfile,
    openOrderFlow: (raw, markets, exchangeWatch) => openOrderFlow(raw, vault, consoleLogger, markets, exchangeWatch),
    logger: consoleLogger,
    notifier: electronNotifier(),
  });
  const current = terminal;
  disposeRouter = registerRouter(current.router, {
    handle: (operation, listener) => {
      const channel = ipcChannel(operation);
      ipcMain.handle(channel, (event, payload: unknown) => listener(senderOf(event), payload));
      return () => ipcMain.removeHandler(channel);
    },
  });
  mainWindow = createMainWindow(current);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createMainWindow(current);
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow || mainWindow.isDestroyed()) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', () => {
    disposeRouter?.();
    void terminal?.close();
  });
  start().catch((error: unknown) => {
    dialog.showErrorBox('PM Desk could not start', error instanceof Error ? error.message : String(error));
    app.exit(1);
  });
}
