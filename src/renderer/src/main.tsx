// Renderer entry: draws the terminal. In browser mode `window.terminal` comes over the host's WebSocket
// bridge; in Electron, from the preload. Everything else asks main through it (src/renderer/src/bridge/terminal.ts).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installBrowserBridge } from './bridge/browser-bridge';
import { App } from './components/App';
import { installKeyboard } from './keys/keyboard';
import { startSession } from './store/session';
import { startTradingAccess } from './store/trading-access';
import { startAlerts } from './store/alerts';
import { startStops } from './store/stops';
import { startRewards } from './store/rewards';
import { startFrameReports } from './live/frame-report';
import './styles.css';

installBrowserBridge();
installKeyboard();
void startSession();
startTradingAccess();
startAlerts();
startStops();
startRewards();
startFrameReports();

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
