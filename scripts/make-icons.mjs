// Renders the icon's source (build/icon.svg) to the PNGs that ship: build/icon.png (1024 px, from which
// electron-builder makes each installer's icons) and src/renderer/public/icon.png (256 px: the page's favicon and
// the window's icon). Run it after changing the SVG; it uses the same headless Chromium as the UI tests.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = readFileSync(new URL('../build/icon.svg', import.meta.url), 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
  ],
});
try {
  for (const [file, size] of [
    ['build/icon.png', 1024],
    ['src/renderer/public/icon.png', 256],
  ]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
    );
    await page.screenshot({ path: new URL(`../${file}`, import.meta.url).pathname, omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
