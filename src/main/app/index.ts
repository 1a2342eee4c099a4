// Electron main: the thin glue that opens the terminal's window. The secure window factory, the IPC
// router and the app:// protocol arrive with the desktop shell (issue 7); nothing important lives here.
import { app, BrowserWindow } from 'electron';
import { join } from 'node:path';

function openMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    title: 'PM Desk',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.mjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
    },
  });
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  void window.loadFile(join(import.meta.dirname, '../renderer/index.html'));
  return window;
}

void app.whenReady().then(openMainWindow);
app.on('window-all-closed', () => app.quit());
