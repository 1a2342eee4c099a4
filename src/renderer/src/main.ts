// Renderer entry: draws the terminal. Until the panels arrive (issue 8) it shows the product's name.
// In browser mode `window.terminal` comes over the host's WebSocket bridge; in Electron, from the preload.
import { installBrowserBridge } from './bridge';

installBrowserBridge();
const root = document.getElementById('root');
if (root) root.textContent = 'PM Desk';
