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
  // No page of a test or benchmark may reach Polymarket, its image host or the built-in networks' nodes: their
  // names do not resolve inside this browser (tests/helpers/no-real-hosts.mjs guards the Node processes the same way).
  '--host-resolver-rules=' +
    [
      'polymarket.com',
      '*.polymarket.com',
      'polymarket-upload.s3.us-east-2.amazonaws.com',
      'polygon.drpc.org',
      'rpc-amoy.polygon.technology',
    ]
      .map((host) => `MAP ${host} ~NOTFOUND`)
      .join(', '),
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
