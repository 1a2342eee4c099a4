// Money in headless Chromium on the whole sandbox, as the owner of a sandbox Safe: the account panel shows the
// Safe's pUSD and USDC.e and the key's POL, and that its actions go through Polymarket's relayer (the sandbox
// profile's relayer key: no login); it wraps from the Balances tab — the dialog saying "Through Polymarket's relayer
// — no gas needed" and why, then the relayer's result, the key's POL untouched — and from the ticket's
// not-enough-pUSD problem; one BUY goes through the ticket and fills from the Safe, a complete set is split from the
// position's row; after the market resolves the position shows "Won $X — Redeem", the confirmation gives the exact
// payout and the path, and the redeem pays the Safe exactly the winning shares on chain.
import { Contract } from 'ethers';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxProvider } from '../../sandbox/chain/index';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { callTerminal, openTerminalPage, type TerminalPage } from '../helpers/terminal-page';
import { makerOrder, marketMaker } from '../helpers/trading-sandbox';

const MARKET = '90021';
const WALLET = 'safe-owner';
const PASSWORD = 'money correct horse battery';
const SLOW = 120_000;

let t: TerminalPage;
let page: Page;
let yes: string;
let safe: string;
let key: string;
const RELAYED =
  /^Through Polymarket's relayer — no gas needed \(a relayer API key for 0x[0-9a-fA-F]{40}, the network profile's test key\)$/;

const call = <T>(op: string, input: unknown): Promise<T> => callTerminal<T>(page, op, input);

const ticket = (testId: string) => page.getByTestId('order-ticket').getByTestId(testId);

async function openTab(name: 'positions' | 'trades' | 'balances'): Promise<void> {
  const dismiss = page.getByTestId('notices').getByRole('button', { name: 'Dismiss' });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  await page.getByTestId(`account-tab-${name}`).click();
}

function onChain<T>(read: (chain: ReturnType<typeof sandboxProvider>) => Promise<T>): Promise<T> {
  const chain = sandboxProvider(t.sandbox.deployment.rpcUrl, t.sandbox.deployment.chainId);
  return read(chain).finally(() => chain.destroy());
}
const pusdOf = (address: string) =>
  onChain(
    (chain) =>
      new Contract(
        t.sandbox.deployment.contracts.collateral,
        ['function balanceOf(address) view returns (uint256)'],
        chain,
      ).getFunction('balanceOf')(address) as Promise<bigint>,
  );
const usdcEOf = (address: string) =>
  onChain(
    (chain) =>
      new Contract(
        t.sandbox.deployment.contracts.usdcE,
        ['function balanceOf(address) view returns (uint256)'],
        chain,
      ).getFunction('balanceOf')(address) as Promise<bigint>,
  );
const sharesOf = (address: string, tokenId: string) =>
  onChain(
    (chain) =>
      new Contract(
        t.sandbox.deployment.contracts.conditionalTokens,
        ['function balanceOf(address, uint256) view returns (uint256)'],
        chain,
      ).getFunction('balanceOf')(address, tokenId) as Promise<bigint>,
  );

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  const market = t.sandbox.catalog.market(MARKET)!;
  yes = market.tokens[0].tokenId;
  const account = t.sandbox.profile.testAccounts.find((a) => a.kind === 'safe')!;
  safe = account.address;
  const owner = t.sandbox.profile.testWallets.find((w) => w.address.toLowerCase() === account.owner.toLowerCase())!;
  key = owner.address;
  // The other side: a wallet that owns no account bids 60¢ for No, so a Yes BUY at 40¢ fills.
  const maker = await marketMaker(
    { sandbox: t.sandbox, profile: parseTradingProfile(t.sandbox.profile), stop: async () => {} },
    0,
  );
  expect(
    await makerOrder(maker.client, { tokenId: market.tokens[1].tokenId, side: 'BUY', price: 0.6, size: 200 }),
  ).toMatchObject({ success: true, status: 'live' });
  await call('importWallet', {
    label: WALLET,
    password: PASSWORD,
    source: { kind: 'privateKey', privateKey: owner.privateKey },
  });
  await call('unlockWallet', { label: WALLET, password: PASSWORD });
  await page.goto(`${t.mode.host.launchUrl}&market=${MARKET}&outcome=${yes}`);
  await page.reload();
  await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('money from the account panel, as a Safe', () => {
  it("shows the Safe's pUSD and USDC.e and the key's POL gas", async () => {
    await openTab('balances');
    const pusd = await pusdOf(safe);
    await expect
      .poll(() => page.getByTestId('funds-pusd').getAttribute('title'), { timeout: 20_000 })
      .toBe(`${pusd} base units`);
    // To the cent, rounded down, grouped: never six decimals on screen.
    const cents = pusd / 10_000n;
    expect(await page.getByTestId('funds-pusd').innerText()).toBe(
      `$${(cents / 100n).toLocaleString('en-US')}.${(cents % 100n).toString().padStart(2, '0')}`,
    );
    expect(await page.getByTestId('funds-usdce').innerText()).toMatch(/^\$\d{1,3}(,\d{3})*\.\d\d$/);
    expect(await page.getByTestId('funds-gas').innerText()).toMatch(/ POL$/);
    expect(await page.getByTestId('funds-via').innerText()).toBe("through Polymarket's relayer (no gas)");
    expect(await page.getByTestId('funds-wrap').isEnabled()).toBe(true);
  });

  it(
    'wraps USDC.e from the Balances tab through the relayer: the amount, the exact effect and the path, then Confirm',
    async () => {
      const [pusd0, usdcE0] = await Promise.all([pusdOf(safe), usdcEOf(safe)]);
      const [pol0, nonce0] = await onChain((chain) =>
        Promise.all([chain.getBalance(key), chain.getTransactionCount(key)]),
      );
      await page.getByTestId('funds-wrap').click();
      const dialog = page.getByTestId('money-dialog');
      await dialog.getByTestId('money-amount').fill('2.5');
      await dialog.getByTestId('money-review').click();
      await expect
        .poll(() => dialog.getByTestId('money-lines').innerText(), { timeout: 20_000 })
        .toBe('$2.50 USDC.e → $2.50 pUSD');
      expect(await dialog.getByTestId('money-via').innerText()).toMatch(RELAYED);
      expect(await dialog.getByTestId('money-gas').count()).toBe(0);
      expect(await usdcEOf(safe)).toBe(usdcE0);
      await dialog.getByTestId('money-confirm').click();
      await dialog.getByTestId('money-done').waitFor({ timeout: 60_000 });
      expect(await dialog.getByTestId('money-done').innerText()).toMatch(
        /^Sent through Polymarket's relayer — no gas needed: mined as 0x[0-9a-f]{64}\. \((mined|confirmed)\)$/,
      );
      expect(await usdcEOf(safe)).toBe(usdcE0 - 2_500_000n);
      expect(await pusdOf(safe)).toBe(pusd0 + 2_500_000n);
      // The relayer sent it and paid: the key sent nothing and its POL is as it was.
      expect(await onChain((chain) => Promise.all([chain.getBalance(key), chain.getTransactionCount(key)]))).toEqual([
        pol0,
        nonce0,
      ]);
      await page.getByTestId('money-dialog').getByRole('button', { name: 'Close' }).click();
      await expect
        .poll(() => page.getByTestId('funds-pusd').getAttribute('title'), { timeout: 20_000 })
        .toBe(`${pusd0 + 2_500_000n} base units`);
    },
    SLOW,
  );

  it(
    "offers Wrap on the ticket's not-enough-pUSD problem when USDC.e covers it, with the shortfall filled in",
    async () => {
      // Leave the Safe $1.00 of pUSD (unwrapping the rest), so a $4.00 buy lacks $3.00.
      const spare = (await pusdOf(safe)) - 1_000_000n;
      await call('runMoneyAction', {
        wallet: WALLET,
        action: 'unwrap',
        amount: `${spare / 1_000_000n}.${(spare % 1_000_000n).toString().padStart(6, '0')}`,
      });
      expect(await pusdOf(safe)).toBe(1_000_000n);
      const usdcE0 = await usdcEOf(safe);
      await ticket('ticket-price').fill('40');
      await ticket('ticket-size').fill('10');
      const offer = ticket('ticket-wrap');
      await expect
        .poll(async () => ((await offer.count()) > 0 ? offer.innerText() : ''), { timeout: 30_000 })
        .toBe('Wrap $3.00 USDC.e');
      await offer.click();
      const dialog = page.getByTestId('money-dialog');
      expect(await dialog.getByTestId('money-amount').inputValue()).toBe('3.00');
      await dialog.getByTestId('money-review').click();
      await expect
        .poll(() => dialog.getByTestId('money-lines').innerText(), { timeout: 20_000 })
        .toBe('$3.00 USDC.e → $3.00 pUSD');
      await dialog.getByTestId('money-confirm').click();
      await dialog.getByTestId('money-done').waitFor({ timeout: 60_000 });
      await page.getByTestId('money-dialog').getByRole('button', { name: 'Close' }).click();
      expect(await pusdOf(safe)).toBe(4_000_000n);
      expect(await usdcEOf(safe)).toBe(usdcE0 - 3_000_000n);
      // Enough for what follows (the buy and a split).
      await call('runMoneyAction', { wallet: WALLET, action: 'wrap', amount: '100' });
    },
    SLOW,
  );

  it(
    'buys through the ticket from the Safe, then after the market resolves redeems from the positions table',
    async () => {
      const shares0 = await sharesOf(safe, yes);
      await ticket('ticket-price').fill('40');
      await ticket('ticket-size').fill('10');
      await expect.poll(() => ticket('ticket-submit').isEnabled(), { timeout: 20_000 }).toBe(true);
      await ticket('ticket-submit').click();
      await page.getByTestId('ticket-confirm').click();
      await expect.poll(() => ticket('ticket-result').innerText(), { timeout: 90_000 }).toMatch(/matched/i);
      await expect.poll(() => sharesOf(safe, yes), { timeout: 30_000 }).toBe(shares0 + 10_000_000n);

      // A complete set split from the position's row: 1 more of each outcome for $1.
      const no = t.sandbox.catalog.market(MARKET)!.tokens[1].tokenId;
      const [no0, pusdBefore] = await Promise.all([sharesOf(safe, no), pusdOf(safe)]);
      await openTab('positions');
      const split = page.getByTestId('positions').getByTestId('position-split').first();
      await split.waitFor({ timeout: 30_000 });
      await split.click();
      const splitDialog = page.getByTestId('money-dialog');
      await splitDialog.getByTestId('money-amount').fill('1');
      await splitDialog.getByTestId('money-review').click();
      await expect
        .poll(() => splitDialog.getByTestId('money-lines').innerText(), { timeout: 20_000 })
        .toBe('$1.00 pUSD → 1 shares of each outcome');
      await splitDialog.getByTestId('money-confirm').click();
      await splitDialog.getByTestId('money-done').waitFor({ timeout: 60_000 });
      await page.getByTestId('money-dialog').getByRole('button', { name: 'Close' }).click();
      expect([await sharesOf(safe, yes), await sharesOf(safe, no), await pusdOf(safe)]).toEqual([
        shares0 + 11_000_000n,
        no0 + 1_000_000n,
        pusdBefore - 1_000_000n,
      ]);

      await t.sandbox.resolveMarket(MARKET, 0);
      const held = await sharesOf(safe, yes);
      const pusd0 = await pusdOf(safe);
      // Opening the tab reads the positions again; the resolved market's row offers the redeem.
      await openTab('trades');
      await openTab('positions');
      const redeem = page.getByTestId('positions').getByTestId('position-redeem').first();
      await expect
        .poll(async () => ((await redeem.count()) > 0 ? redeem.innerText() : ''), { timeout: 30_000 })
        .toMatch(/^Won \$[0-9.,]+ — Redeem$/);
      await redeem.click();
      const dialog = page.getByTestId('money-dialog');
      await dialog.waitFor();
      const payout = `$${(Number(held) / 1e6).toFixed(2)}`;
      await expect
        .poll(() => dialog.getByTestId('money-lines').innerText(), { timeout: 20_000 })
        .toContain(`Won ${payout}: ${payout} pUSD`);
      expect(await dialog.getByTestId('money-via').innerText()).toMatch(RELAYED);
      // Nothing is sent before Confirm.
      expect(await pusdOf(safe)).toBe(pusd0);
      await dialog.getByTestId('money-confirm').click();
      await dialog.getByTestId('money-done').waitFor({ timeout: 60_000 });
      expect(await pusdOf(safe)).toBe(pusd0 + held);
      expect(await sharesOf(safe, yes)).toBe(0n);
    },
    SLOW,
  );
});
