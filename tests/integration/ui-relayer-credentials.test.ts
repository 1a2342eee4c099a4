// Relayer credentials entered in the app, in headless Chromium on the whole sandbox, as the owner of a sandbox
// deposit wallet on a profile that hands out no relayer keys: the Balances tab says the key would pay and the deposit
// wallet's buttons are off (relayer only); the trader enters the relayer API key in a field that never echoes, main
// checks it with the relayer and keeps it (a wrong one is refused and not kept), the page never holds it again, the
// panel now says the relayer sends; and a wrap goes through the relayer — the dialog saying it was submitted (with
// the relayer's id) while the relayer has not answered yet, then the result — the key holding no POL before or after.
import { Contract } from 'ethers';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxProvider } from '../../sandbox/chain/index';
import { callTerminal, openTerminalPage, type TerminalPage } from '../helpers/terminal-page';
import { RelayerFaultProxy } from '../helpers/relayer-fault-proxy';

const WALLET = 'deposit-owner';
const PASSWORD = 'relayer correct horse battery';
const SLOW = 120_000;

let t: TerminalPage;
let page: Page;
let deposit: string;
let key: string;
let apiKey: string;
let proxy: RelayerFaultProxy;

function onChain<T>(read: (chain: ReturnType<typeof sandboxProvider>) => Promise<T>): Promise<T> {
  const chain = sandboxProvider(t.sandbox.deployment.rpcUrl, t.sandbox.deployment.chainId);
  return read(chain).finally(() => chain.destroy());
}
const balanceOf = (token: string, address: string) =>
  onChain(
    (chain) =>
      new Contract(token, ['function balanceOf(address) view returns (uint256)'], chain).getFunction('balanceOf')(
        address,
      ) as Promise<bigint>,
  );

beforeAll(async () => {
  // The terminal talks to the sandbox relayer through a proxy that can hold its polls (tests/helpers/relayer-fault-proxy.ts).
  proxy = new RelayerFaultProxy('http://127.0.0.1:9');
  await proxy.start();
  t = await openTerminalPage({
    profile: (profile) => {
      proxy.retarget(profile.relayerUrl);
      return { ...profile, relayerApiKeys: [], relayerUrl: proxy.url };
    },
  });
  page = t.page;
  const account = t.sandbox.profile.testAccounts.find((a) => a.kind === 'deposit')!;
  deposit = account.address;
  const owner = t.sandbox.profile.testWallets.find((w) => w.address.toLowerCase() === account.owner.toLowerCase())!;
  key = owner.address;
  apiKey = t.sandbox.profile.relayerApiKeys.find((k) => k.address.toLowerCase() === key.toLowerCase())!.key;
  await onChain((chain) => chain.send('anvil_setBalance', [key, '0x0']));
  await callTerminal(page, 'importWallet', {
    label: WALLET,
    password: PASSWORD,
    source: { kind: 'privateKey', privateKey: owner.privateKey },
  });
  await callTerminal(page, 'unlockWallet', { label: WALLET, password: PASSWORD });
  await page.reload();
  await page.getByTestId('account-tab-balances').click();
}, SLOW);

afterAll(async () => {
  proxy?.releasePolls();
  await t?.stop();
  await proxy?.stop();
});

describe('relayer credentials for a deposit wallet', () => {
  it('without them: the key would pay, and the deposit wallet cannot act', async () => {
    await expect
      .poll(() => page.getByTestId('funds-via').innerText(), { timeout: 30_000 })
      .toBe('by the key (gas in POL)');
    expect(await page.getByTestId('funds-wrap').isEnabled()).toBe(false);
    expect(await page.getByTestId('funds-unavailable').innerText()).toMatch("Polymarket's relayer");
  });

  it(
    'a key the relayer refuses is not kept; the right one is, never echoed, and the panel then says the relayer sends',
    async () => {
      await page.getByTestId('funds-relayer').click();
      const dialog = page.getByTestId('relayer-dialog');
      expect(await dialog.getByTestId('relayer-key').getAttribute('type')).toBe('password');
      await dialog.getByTestId('relayer-key').fill('a-key-the-relayer-does-not-know');
      await dialog.getByTestId('relayer-save').click();
      await expect.poll(() => dialog.getByTestId('relayer-said').innerText(), { timeout: 30_000 }).toMatch(/./);
      expect(await dialog.getByTestId('relayer-said').getAttribute('role')).toBe('alert');
      expect(await dialog.getByTestId('relayer-said').innerText()).not.toContain('a-key-the-relayer-does-not-know');

      await dialog.getByTestId('relayer-key').fill(apiKey);
      await dialog.getByTestId('relayer-save').click();
      await expect
        .poll(() => dialog.getByTestId('relayer-said').innerText(), { timeout: 30_000 })
        .toMatch(/^Kept a relayer API key for 0x[0-9a-fA-F]{40} \(this session only\)\./);
      expect(await dialog.getByTestId('relayer-key').inputValue()).toBe('');
      expect(await page.content()).not.toContain(apiKey);
      await dialog.getByRole('button', { name: 'Close (Esc)' }).click();
      await expect
        .poll(() => page.getByTestId('funds-via').innerText(), { timeout: 30_000 })
        .toBe("through Polymarket's relayer (no gas)");
      expect(await page.getByTestId('funds-wrap').isEnabled()).toBe(true);
    },
    SLOW,
  );

  it(
    'then wraps through the relayer from the Balances tab, the key still holding no POL',
    async () => {
      const [pusd0, usdcE0] = await Promise.all([
        balanceOf(t.sandbox.deployment.contracts.collateral, deposit),
        balanceOf(t.sandbox.deployment.contracts.usdcE, deposit),
      ]);
      await page.getByTestId('funds-wrap').click();
      const dialog = page.getByTestId('money-dialog');
      await dialog.getByTestId('money-amount').fill('1.25');
      await dialog.getByTestId('money-review').click();
      await expect
        .poll(() => dialog.getByTestId('money-via').innerText(), { timeout: 20_000 })
        .toMatch(
          /^Through Polymarket's relayer — no gas needed \(a relayer API key for 0x[0-9a-fA-F]{40}, kept for this session\)$/,
        );
      proxy.holdPolls();
      await dialog.getByTestId('money-confirm').click();
      await expect
        .poll(() => dialog.getByTestId('money-progress').innerText(), { timeout: 30_000 })
        .toMatch(/^Submitted to Polymarket's relayer as \S+ \(STATE_\w+\): waiting for it to be mined and confirmed…$/);
      expect(await dialog.getByTestId('money-done').count()).toBe(0);
      proxy.releasePolls();
      await dialog.getByTestId('money-done').waitFor({ timeout: 60_000 });
      expect(await dialog.getByTestId('money-done').innerText()).toMatch(
        /^Sent through Polymarket's relayer — no gas needed: mined as 0x[0-9a-f]{64}\./,
      );
      expect(await balanceOf(t.sandbox.deployment.contracts.usdcE, deposit)).toBe(usdcE0 - 1_250_000n);
      expect(await balanceOf(t.sandbox.deployment.contracts.collateral, deposit)).toBe(pusd0 + 1_250_000n);
      expect(await onChain((chain) => chain.getBalance(key))).toBe(0n);
    },
    SLOW,
  );
});
