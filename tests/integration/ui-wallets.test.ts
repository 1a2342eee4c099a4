// The wallet menu and the network switch in headless Chromium, against the sandbox and browser mode's real
// services: a funded key imported through the import dialog, unlocked (a wrong password answered with the
// catalogue's sentence), locked, a new wallet whose recovery phrase is shown once and gone afterwards, a keystore
// exported as a download, and switching wallets. Everything is done by clicking and typing, as a trader would.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HDNodeWallet } from 'ethers';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTerminalPage, testWalletKey, type TerminalPage } from '../helpers/terminal-page';
import { findSecrets } from '../helpers/contract-examples';

const PASSWORD = 'ui wallets correct horse';
const FRESH_PASSWORD = 'a fresh battery staple';

let terminal: TerminalPage;
let page: Page;
const secrets: string[] = [PASSWORD, FRESH_PASSWORD];

beforeAll(async () => {
  terminal = await openTerminalPage();
  page = terminal.page;
  secrets.push(testWalletKey(terminal.sandbox));
  // The session has loaded once the badge shows the network.
  await page.getByTestId('network-switch').getByText('sandbox').waitFor();
}, 120_000);

afterAll(async () => {
  await terminal?.stop();
});

const byId = (id: string) => page.getByTestId(id);
const walletOption = (label: string) => page.locator(`[data-testid="wallet-option"][data-label="${label}"]`);

async function openWalletMenu(): Promise<void> {
  if ((await byId('wallet-dropdown').count()) === 0) await byId('wallet-current').click();
  await byId('wallet-dropdown').waitFor();
}

/** What the page holds after a dialog closed: its markup, every field's value, both storages. */
async function pageHoldings(): Promise<{
  html: string;
  text: string;
  fields: string[];
  local: Record<string, string>;
  session: Record<string, string>;
}> {
  return page.evaluate(() => {
    interface Storage {
      length: number;
      key(i: number): string | null;
      getItem(k: string): string | null;
    }
    const g = globalThis as unknown as {
      document: {
        documentElement: { outerHTML: string };
        body: { innerText: string };
        querySelectorAll(s: string): ArrayLike<{ value: string }>;
      };
      localStorage: Storage;
      sessionStorage: Storage;
    };
    const dump = (s: Storage) =>
      Object.fromEntries(Array.from({ length: s.length }, (_, i) => s.key(i)!).map((k) => [k, s.getItem(k) ?? '']));
    return {
      html: g.document.documentElement.outerHTML,
      text: g.document.body.innerText,
      fields: Array.from(g.document.querySelectorAll('input, textarea, select')).map((f) => f.value),
      local: dump(g.localStorage),
      session: dump(g.sessionStorage),
    };
  });
}

/** Letters only, single-spaced, tags dropped: a phrase is found however it was numbered, marked up or joined. */
const lettersOnly = (text: string) =>
  text
    .replace(/<[^>]*>/g, ' ')
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim();

describe('the wallet menu, in the browser', () => {
  let phrase = '';
  let keystoreFile = '';

  it('starts with no wallet: Unlock is disabled and says why', async () => {
    await expect.poll(() => byId('wallet-label').textContent()).toBe('No wallet');
    expect(await byId('wallet-unlock').isDisabled()).toBe(true);
    expect(await byId('wallet-unlock').getAttribute('title')).toBe('Create or import a wallet first.');
  });

  it('imports the funded sandbox key from the import dialog; the wallet shows as locked', async () => {
    const funded = terminal.sandbox.profile.testWallets[0]!;
    await openWalletMenu();
    await byId('wallet-import').click();
    await byId('import-tab-privateKey').click();
    await byId('wallet-label-input').fill('funded');
    await byId('import-private-key').fill(funded.privateKey);
    expect(await byId('import-private-key').getAttribute('type')).toBe('password');
    await byId('password-input').fill(PASSWORD);
    await byId('password-repeat-input').fill(PASSWORD + 'x');
    expect(await byId('import-submit').isDisabled()).toBe(true);
    expect(await byId('import-submit').getAttribute('title')).toBe('The two passwords differ.');
    await byId('password-repeat-input').fill(PASSWORD);
    await byId('import-submit').click();
    await byId('import-dialog').waitFor({ state: 'detached' });
    expect(await byId('wallet-label').textContent()).toBe('funded');
    expect(await byId('wallet-current').getAttribute('title')).toBe(`funded: ${funded.address}`);
    expect(await byId('wallet-state').textContent()).toBe('Locked');
  });

  it('unlocks it: a wrong password gets the sentence main wrote, the right one unlocks', async () => {
    await byId('wallet-unlock').click();
    expect(await byId('password-input').getAttribute('type')).toBe('password');
    await byId('password-input').fill('not the password');
    await byId('unlock-submit').click();
    await expect.poll(() => byId('dialog-error').textContent()).toBe('invalid password');
    // Typed again from scratch after a failure.
    expect(await byId('password-input').inputValue()).toBe('');
    expect(await byId('wallet-state').textContent()).toBe('Locked');
    await byId('password-input').fill(PASSWORD);
    await byId('auto-lock-minutes').selectOption('60');
    await byId('unlock-submit').click();
    await byId('unlock-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => byId('wallet-state').textContent()).toBe('Unlocked');
    const listed = await page.evaluate(async () =>
      (globalThis as unknown as { terminal: { listWallets(i: object): Promise<unknown> } }).terminal.listWallets({}),
    );
    expect(listed).toMatchObject({ ok: true, value: [{ label: 'funded', unlocked: true }] });
  });

  it('locks it from the top bar', async () => {
    await byId('wallet-lock').click();
    await expect.poll(() => byId('wallet-state').textContent()).toBe('Locked');
    await byId('wallet-unlock').waitFor();
    const listed = await page.evaluate(async () =>
      (globalThis as unknown as { terminal: { listWallets(i: object): Promise<unknown> } }).terminal.listWallets({}),
    );
    expect(listed).toMatchObject({ ok: true, value: [{ label: 'funded', unlocked: false }] });
  });

  it('creates a wallet: the phrase is shown once, numbered, closes only on two words typed back, and is gone afterwards', async () => {
    await openWalletMenu();
    await byId('wallet-create').click();
    await byId('wallet-label-input').fill('fresh');
    await byId('password-input').fill(FRESH_PASSWORD);
    await byId('password-repeat-input').fill(FRESH_PASSWORD);
    await byId('create-submit').click();
    await byId('recovery-phrase').waitFor();
    const words = await byId('recovery-phrase').locator('.word').allTextContents();
    expect(words).toHaveLength(12);
    expect(words.every((w) => /^[a-z]+$/.test(w))).toBe(true);
    phrase = words.join(' ');
    expect(await byId('recovery-phrase').locator('li').first().textContent()).toBe(`1. ${words[0]}`);
    // The checks below do find the phrase while it is on screen.
    const shown = await pageHoldings();
    expect(lettersOnly(shown.html)).toContain(phrase);
    expect(lettersOnly(shown.text)).toContain(phrase);
    // Esc does not close it: the phrase must be confirmed first.
    await page.keyboard.press('Escape');
    expect(await byId('recovery-phrase').count()).toBe(1);

    await byId('phrase-written').click();
    const asked = (await page.locator('[data-asked]').getAttribute('data-asked'))!.split(',').map(Number);
    expect(asked).toHaveLength(2);
    expect(await byId('recovery-phrase').count()).toBe(0);
    expect(await byId('phrase-confirm').isDisabled()).toBe(true);
    expect(await byId('phrase-confirm').getAttribute('title')).toBe(
      `Type words #${asked[0]} and #${asked[1]} of the phrase.`,
    );
    await byId('confirm-word-1').fill(words[asked[0]! - 1]!);
    await byId('confirm-word-2').fill(words[asked[0]! - 1]! === words[asked[1]! - 1]! ? 'zzz' : words[asked[0]! - 1]!);
    expect(await byId('phrase-confirm').isDisabled()).toBe(true);
    await byId('confirm-word-2').fill(words[asked[1]! - 1]!);
    await byId('phrase-confirm').click();
    await byId('phrase-confirm-dialog').waitFor({ state: 'detached' });

    expect(await byId('wallet-label').textContent()).toBe('fresh');
    const held = await pageHoldings();
    expect(lettersOnly(held.html)).not.toContain(phrase);
    expect(lettersOnly(held.text)).not.toContain(phrase);
    expect(held.fields.some((value) => lettersOnly(value).includes(words.slice(0, 2).join(' ')))).toBe(false);
    expect(findSecrets(held, [...secrets, phrase], 'page after the dialogs closed')).toEqual([]);
    expect(held.local).toEqual({});
    expect(held.session).toEqual({});
  });

  it('exports the active wallet as a keystore download, after its password', async () => {
    await openWalletMenu();
    await walletOption('funded').click();
    await expect.poll(() => byId('wallet-label').textContent()).toBe('funded');
    await openWalletMenu();
    await byId('wallet-export').click();
    await byId('password-input').fill('wrong wrong wrong');
    await byId('export-submit').click();
    await expect.poll(() => byId('dialog-error').textContent()).toBe('invalid password');
    await byId('password-input').fill(PASSWORD);
    const [download] = await Promise.all([page.waitForEvent('download'), byId('export-submit').click()]);
    expect(download.suggestedFilename()).toMatch(/^funded-[0-9a-f]{8}\.json$/);
    const keystore = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
      address?: string;
      crypto?: unknown;
      Crypto?: unknown;
    };
    const funded = terminal.sandbox.profile.testWallets[0]!;
    expect(`0x${keystore.address}`.toLowerCase()).toBe(funded.address.toLowerCase());
    expect(keystore.crypto ?? keystore.Crypto).toBeTruthy();
    await byId('export-dialog').waitFor({ state: 'detached' });
    const folder = await mkdtemp(join(tmpdir(), 'pmdesk-ui-wallets-'));
    keystoreFile = join(folder, download.suggestedFilename());
    await download.saveAs(keystoreFile);
  });

  it('imports a keystore file through the file picker (main refuses a wallet it already has, in its sentence)', async () => {
    await openWalletMenu();
    await byId('wallet-import').click();
    await byId('import-tab-keystore').click();
    await byId('wallet-label-input').fill('copy');
    expect(await byId('import-submit').getAttribute('title')).toBe('Choose a keystore file.');
    await byId('import-keystore').setInputFiles(keystoreFile);
    await byId('password-input').fill(PASSWORD);
    await expect.poll(() => byId('import-submit').isEnabled()).toBe(true);
    await byId('import-submit').click();
    await expect
      .poll(() => byId('dialog-error').textContent())
      .toBe('This wallet is already in PM Desk, labelled "funded".');
    await page.keyboard.press('Escape');
    await byId('import-dialog').waitFor({ state: 'detached' });
    await rm(join(keystoreFile, '..'), { recursive: true, force: true });
  });

  it('imports a recovery phrase at an account index: the address is that account’s', async () => {
    await openWalletMenu();
    await byId('wallet-import').click();
    await byId('wallet-label-input').fill('second');
    await byId('import-phrase').fill(`  ${phrase.toUpperCase()} `);
    await byId('import-index').fill('1');
    await byId('password-input').fill(FRESH_PASSWORD);
    await byId('password-repeat-input').fill(FRESH_PASSWORD);
    await byId('import-submit').click();
    await byId('import-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => byId('wallet-label').textContent()).toBe('second');
    const expected = HDNodeWallet.fromPhrase(phrase, undefined, "m/44'/60'/0'/0/1").address;
    expect(await byId('wallet-current').getAttribute('title')).toBe(`second: ${expected}`);
    const held = await pageHoldings();
    expect(findSecrets(held, [...secrets, phrase], 'page after the import closed')).toEqual([]);
  });

  it('switches between wallets from the menu: the label, the address and what Unlock opens follow', async () => {
    await openWalletMenu();
    const labels = await byId('wallet-option').evaluateAll((options) =>
      options.map((o) => (o as unknown as { dataset: { label: string } }).dataset.label),
    );
    expect(labels.sort()).toEqual(['fresh', 'funded', 'second']);
    const listed = (await page.evaluate(async () =>
      (globalThis as unknown as { terminal: { listWallets(i: object): Promise<unknown> } }).terminal.listWallets({}),
    )) as {
      value: { label: string; address: string }[];
    };
    const fresh = listed.value.find((w) => w.label === 'fresh')!;
    await walletOption('fresh').click();
    await expect.poll(() => byId('wallet-label').textContent()).toBe('fresh');
    expect(await byId('wallet-current').getAttribute('title')).toBe(`fresh: ${fresh.address}`);
    expect(await byId('wallet-dropdown').count()).toBe(0);
    // Unlock follows the wallet shown: unlocking now opens fresh's dialog, not funded's.
    await byId('wallet-unlock').click();
    expect(await byId('unlock-dialog').getAttribute('aria-label')).toBe('Unlock fresh');
    await page.keyboard.press('Escape');
    await byId('unlock-dialog').waitFor({ state: 'detached' });
    await openWalletMenu();
    await walletOption('funded').click();
    await expect.poll(() => byId('wallet-label').textContent()).toBe('funded');
  });

  it('shows the dead-man switch as main answers it (its sentence when it cannot)', async () => {
    await openWalletMenu();
    const answer = (await page.evaluate(async () =>
      (
        globalThis as unknown as { terminal: { getDeadManSwitch(i: object): Promise<unknown> } }
      ).terminal.getDeadManSwitch({ wallet: 'funded' }),
    )) as { ok: boolean; value?: { enabled: boolean }; error?: { code: string; message: string } };
    if (answer.ok) {
      expect(await byId('dms-toggle').isChecked()).toBe(answer.value!.enabled);
      expect(await byId('dms-badge').count()).toBe(answer.value!.enabled ? 1 : 0);
    } else if (answer.error!.code !== 'ERR_NOT_AVAILABLE') {
      await expect.poll(() => byId('dms-problem').textContent()).toBe(answer.error!.message);
    } else {
      // Not offered in this session: the toggle is disabled and says main's sentence.
      await expect.poll(() => byId('dms-unavailable').textContent()).toBe(answer.error!.message);
      expect(await byId('dms-toggle').isDisabled()).toBe(true);
      expect(await page.locator('label.dms-toggle').getAttribute('title')).toBe(answer.error!.message);
      expect(await byId('dms-badge').count()).toBe(0);
    }
    await page.keyboard.press('Escape');
    await byId('wallet-dropdown').waitFor({ state: 'detached' });
  });

  it('lists the networks from the badge, the current one checked', async () => {
    await byId('network-switch').click();
    await byId('network-list').waitFor();
    const current = byId('network-option').and(page.locator('[aria-checked="true"]'));
    expect(await current.getAttribute('data-name')).toBe('sandbox');
    for (const option of await byId('network-option').all()) {
      if (await option.isDisabled()) expect(((await option.getAttribute('title')) ?? '').length).toBeGreaterThan(0);
    }
    await page.keyboard.press('Escape');
    await byId('network-list').waitFor({ state: 'detached' });
  });

  it('adds a custom network from the form: refused fields say why; the answer of main is shown (or the network listed)', async () => {
    await byId('network-switch').click();
    await byId('network-add').click();
    await byId('network-name-input').fill('fork');
    await byId('network-chain-input').fill('13x');
    expect(await byId('network-add-submit').isDisabled()).toBe(true);
    expect(await byId('network-add-submit').getAttribute('title')).toBe(
      'The chain id is a positive whole number (137 for Polygon).',
    );
    await byId('network-chain-input').fill('137');
    // Polymarket direct is the form's first choice; this network reads an aggregator.
    expect(await byId('network-add-submit').getAttribute('title')).toBe(
      'The Gamma, Data API, exchange and RPC URLs are all needed.',
    );
    await byId('network-source-select').selectOption('aggregator');
    expect(await byId('network-add-submit').getAttribute('title')).toBe(
      'The aggregator, exchange and RPC URLs are all needed.',
    );
    const dialog = byId('add-network-dialog');
    await dialog.getByLabel('Aggregator URL').fill('http://127.0.0.1:9/agg');
    await dialog.getByLabel('Exchange (CLOB) URL').fill('http://127.0.0.1:9/clob');
    await dialog.getByLabel('RPC URL').fill('http://127.0.0.1:9/rpc');
    await byId('network-add-submit').click();
    await expect
      .poll(async () => (await byId('dialog-error').count()) + ((await dialog.count()) === 0 ? 1 : 0))
      .toBe(1);
    const networks = (await page.evaluate(async () =>
      (globalThis as unknown as { terminal: { listNetworks(i: object): Promise<unknown> } }).terminal.listNetworks({}),
    )) as {
      value: { name: string; available: boolean; sandbox: boolean }[];
    };
    const fork = networks.value.find((n) => n.name === 'fork');
    if (!fork) {
      // Not kept: the dialog stays open with the sentence main answers for this network.
      const answer = (await page.evaluate(async () =>
        (globalThis as unknown as { terminal: { addNetwork(i: object): Promise<unknown> } }).terminal.addNetwork({
          name: 'fork',
          chainId: 137,
          aggregatorUrl: 'http://127.0.0.1:9/agg',
          clobUrl: 'http://127.0.0.1:9/clob',
          rpcUrl: 'http://127.0.0.1:9/rpc',
          orderVersion: 2,
        }),
      )) as { ok: boolean; error?: { message: string } };
      expect(answer.ok).toBe(false);
      expect(await byId('dialog-error').textContent()).toBe(answer.error!.message);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      return;
    }
    // Kept: it is listed, and choosing it (real money) asks first; staying keeps the sandbox.
    await dialog.waitFor({ state: 'detached' });
    await byId('network-switch').click();
    const option = page.locator('[data-testid="network-option"][data-name="fork"]');
    await option.waitFor();
    if (fork.available && !fork.sandbox) {
      await option.click();
      await byId('network-confirm').waitFor();
      await byId('network-confirm').getByText('Stay here').click();
      expect(await byId('network-switch').textContent()).toContain('sandbox');
    } else if (!fork.available) {
      expect(await option.isDisabled()).toBe(true);
    }
    await page.keyboard.press('Escape');
  });
});
