// Debian's Chromium, headless, with the flags this machine needs (no sandbox as root, no background
// networking: the network is closed and Chromium would otherwise keep knocking on it).
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.PMDESK_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
