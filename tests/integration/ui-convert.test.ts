// Converting No shares of the sandbox's three-outcome Fed event in headless Chromium, as the owner of a sandbox
// Safe (so through Polymarket's relayer, no gas): the market view of a neg-risk market offers "Convert…"; the
// position row of a No position opens the dialog with that outcome chosen; only outcomes held can be chosen and the
// size is capped at the smallest holding; the confirmation says exactly what is given and received; after Confirm
// every position of the event and the Safe's pUSD are read on chain, to the base unit.
import { Contract } from 'ethers';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxProvider } from '../../sandbox/chain/index';
import { callTerminal, openTerminalPage, type TerminalPage } from '../helpers/terminal-page';

const EVENT = '9001';
const MARKET = '90011'; // "No change", the Fed event's first outcome
const WALLET = 'safe-owner';
const PASSWORD = 'convert correct horse battery';
const SLOW = 180_000;

let t: TerminalPage;
let page: Page;
let safe: string;

const call = <T>(op: string, input: unknown): Promise<T> => callTerminal<T>(page, op, input);

function onChain<T>(read: (chain: ReturnType<typeof sandboxProvider>) => Promise<T>): Promise<T> {
  const chain = sandboxProvider(t.sandbox.deployment.rpcUrl, t.sandbox.deployment.chainId);
  return read(chain).finally(() => chain.destroy());
}
const pusd = () =>
  onChain(
    (chain) =>
      new Contract(
        t.sandbox.deployment.contracts.collateral,
        ['function balanceOf(address) view returns (uint256)'],
        chain,
      ).getFunction('balanceOf')(safe) as Promise<bigint>,
  );
/** [yes0, no0, yes1, no1, yes2, no2] of the event's markets, held by the Safe. */
const positions = () =>
  onChain((chain) => {
    const ctf = new Contract(
      t.sandbox.deployment.contracts.conditionalTokens,
      ['function balanceOf(address, uint256) view returns (uint256)'],
      chain,
    );
    const ids = t.sandbox.catalog.events
      .find((e) => e.id === EVENT)!
      .markets.flatMap((m) => m.tokens.map((tok) => tok.tokenId));
    return Promise.all(ids.map((id) => ctf.getFunction('balanceOf')(safe, id) as Promise<bigint>));
  });

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  const account = t.sandbox.profile.testAccounts.find((a) => a.kind === 'safe')!;
  safe = account.address;
  const owner = t.sandbox.profile.testWallets.find((w) => w.address.toLowerCase() === account.owner.toLowerCase())!;
  await call('importWallet', {
    label: WALLET,
    password: PASSWORD,
    source: { kind: 'privateKey', privateKey: owner.privateKey },
  });
  await call('unlockWallet', { label: WALLET, password: PASSWORD });
  // No shares of "No change" (10) and "25 bps cut" (6), split through the relayer as the Safe.
  await call('runMoneyAction', { wallet: WALLET, action: 'split', marketId: MARKET, amount: '10' });
  await call('runMoneyAction', { wallet: WALLET, action: 'split', marketId: '90012', amount: '6' });
  await page.goto(`${t.mode.host.launchUrl}&market=${MARKET}&event=${EVENT}`);
  await page.reload();
  await page.getByTestId('market-question').waitFor();
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('converting No shares in the app', () => {
  it('the market view of a neg-risk market opens the dialog with the event and the No shares held', async () => {
    await page.getByTestId('market-convert').click();
    const dialog = page.getByTestId('convert-dialog');
    await dialog.getByTestId('convert-outcomes').waitFor({ timeout: 30_000 });
    const rows = dialog.getByTestId('convert-outcome');
    expect((await rows.allInnerTexts()).map((r) => r.trim())).toEqual([
      'No change\t10',
      '25 bps cut\t6',
      '50+ bps cut\t0',
    ]);
    // Nothing held of 50+: it cannot be chosen.
    expect(await rows.nth(2).getByTestId('convert-choose').isDisabled()).toBe(true);
    expect(await rows.nth(0).getByTestId('convert-choose').isChecked()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it(
    'from the No position row: give 4 No of "No change" and "25 bps cut", get 4 Yes of "50+ bps cut" and $4, on chain',
    async () => {
      const dismiss = page.getByTestId('notices').getByRole('button', { name: 'Dismiss' });
      while ((await dismiss.count()) > 0) await dismiss.first().click();
      await page.getByTestId('account-tab-positions').click();
      const row = page
        .getByTestId('positions')
        .locator('tr', { hasText: 'Will the Fed leave rates unchanged' })
        .filter({
          has: page.getByTestId('position-convert'),
        });
      await row.getByTestId('position-convert').click({ timeout: 60_000 });
      const dialog = page.getByTestId('convert-dialog');
      await dialog.getByTestId('convert-outcomes').waitFor({ timeout: 30_000 });
      const rows = dialog.getByTestId('convert-outcome');
      expect(await rows.nth(0).getByTestId('convert-choose').isChecked()).toBe(true);
      await rows.nth(1).getByTestId('convert-choose').check();
      // Capped at the smallest No holding chosen (6 of "25 bps cut").
      await dialog.getByTestId('convert-size').fill('7');
      expect(await dialog.getByTestId('convert-review').isDisabled()).toBe(true);
      await dialog.getByTestId('convert-max').click();
      expect(await dialog.getByTestId('convert-size').inputValue()).toBe('6');
      await dialog.getByTestId('convert-size').fill('4');

      const [cash0, held0] = [await pusd(), await positions()];
      await dialog.getByTestId('convert-review').click();
      await dialog.getByTestId('convert-given').waitFor({ timeout: 30_000 });
      expect(await dialog.getByTestId('convert-given').innerText()).toBe('4 No of No change\n4 No of 25 bps cut');
      expect(await dialog.getByTestId('convert-received').innerText()).toBe('4 Yes of 50+ bps cut\n$4.00 pUSD');
      expect(await dialog.getByTestId('convert-via').getAttribute('data-via')).toBe('relayer');
      expect(await positions()).toEqual(held0);

      await dialog.getByTestId('convert-confirm').click();
      await dialog.getByTestId('convert-done').waitFor({ timeout: 90_000 });
      expect(await dialog.getByTestId('convert-done').innerText()).toMatch(/Polymarket's relayer/);
      expect(await pusd()).toBe(cash0 + 4_000_000n);
      expect((await positions()).map((h, i) => h - held0[i]!)).toEqual([
        0n,
        -4_000_000n,
        0n,
        -4_000_000n,
        4_000_000n,
        0n,
      ]);
    },
    SLOW,
  );
});
