// The wallet menu's Polymarket account in headless Chromium, on the whole sandbox (real chain, CLOB, signer):
// importing the key that owns the sandbox's ready-made Safe shows "Polymarket account 0x… (Safe, owned by key
// 0x…)", and a buy through the order ticket fills from the Safe's collateral, which the chain shows moved.
import { Contract, JsonRpcProvider } from 'ethers';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { callTerminal, openTerminalPage, type TerminalPage } from '../helpers/terminal-page';
import { makerOrder, marketMaker } from '../helpers/trading-sandbox';

const MARKET = '90021';
const WALLET = 'safe-owner';
const PASSWORD = 'safe correct horse battery';
const SLOW = 120_000;

interface PageWindow {
  document: { querySelector(selector: string): { textContent: string | null } | null };
}

let t: TerminalPage;
let page: Page;
let chain: JsonRpcProvider;
let yes: string;
let no: string;

const call = <T>(op: string, input: unknown): Promise<T> => callTerminal<T>(page, op, input);
const ticket = (testId: string) => page.getByTestId('order-ticket').getByTestId(testId);

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  chain = new JsonRpcProvider(t.sandbox.deployment.rpcUrl, undefined, { staticNetwork: true });
  const market = t.sandbox.catalog.market(MARKET)!;
  [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
  const safe = t.sandbox.profile.testAccounts.find((a) => a.kind === 'safe')!;
  const owner = t.sandbox.profile.testWallets.find((w) => w.address.toLowerCase() === safe.owner.toLowerCase())!;
  await call('importWallet', {
    label: WALLET,
    password: PASSWORD,
    source: { kind: 'privateKey', privateKey: owner.privateKey },
  });
  await call('unlockWallet', { label: WALLET, password: PASSWORD, autoLockMinutes: 0 });
  // An ask for Yes at 0.40 from a test wallet that owns no account.
  const maker = await marketMaker(
    { sandbox: t.sandbox, profile: parseTradingProfile(t.sandbox.profile), stop: async () => {} },
    0,
  );
  expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.6, size: 100 })).toMatchObject({
    success: true,
  });
  await page.goto(`${t.mode.host.launchUrl}&market=${MARKET}&outcome=${yes}`);
  await page.reload();
  await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
}, SLOW);

afterAll(async () => {
  chain?.destroy();
  await t?.stop();
});

describe('the wallet menu’s Polymarket account', () => {
  it('shows the Safe owner’s account, with the key and its other candidates to choose from', async () => {
    const safe = t.sandbox.profile.testAccounts.find((a) => a.kind === 'safe')!;
    await page.getByTestId('wallet-current').click();
    const account = page.getByTestId('wallet-account');
    await expect
      .poll(() => account.innerText(), { timeout: 20_000 })
      .toBe(`Polymarket account ${safe.address} (Safe, owned by key ${safe.owner})`);
    expect(await account.getAttribute('data-kind')).toBe('safe');
    const options = page.getByTestId('account-option');
    const addresses = await options.evaluateAll((els) =>
      els.map((el) => (el as unknown as { dataset: { account: string } }).dataset.account),
    );
    expect(addresses).toContain(safe.owner);
    expect(addresses).toContain(safe.address);
    expect(
      await page.locator(`[data-testid="account-option"][data-account="${safe.address}"]`).getAttribute('aria-checked'),
    ).toBe('true');
    await page.keyboard.press('Escape');
    // The account panel says whose funds it shows.
    await expect
      .poll(async () => (await page.getByTestId('account-source').innerText()).trim())
      .toBe(`· Safe ${safe.address.slice(0, 6)}…${safe.address.slice(-4)}`);
  });

  it('buys through the ticket from the Safe: its collateral pays and its shares arrive', async () => {
    const safe = t.sandbox.profile.testAccounts.find((a) => a.kind === 'safe')!;
    const usdc = new Contract(
      t.sandbox.deployment.contracts.collateral,
      ['function balanceOf(address) view returns (uint256)'],
      chain,
    );
    const ctf = new Contract(
      t.sandbox.deployment.contracts.conditionalTokens,
      ['function balanceOf(address, uint256) view returns (uint256)'],
      chain,
    );
    const [cash0, ownerCash0] = [
      (await usdc.getFunction('balanceOf')(safe.address)) as bigint,
      (await usdc.getFunction('balanceOf')(safe.owner)) as bigint,
    ];

    await ticket('ticket-side-buy').click();
    await ticket('ticket-price').fill('40');
    await ticket('ticket-size').fill('10');
    await expect.poll(() => ticket('ticket-submit').isEnabled()).toBe(true);
    await ticket('ticket-submit').click();
    await page.getByTestId('ticket-confirm-dialog').waitFor();
    await page.getByTestId('ticket-confirm').click();
    await page.waitForFunction(
      () => {
        const text =
          (globalThis as unknown as PageWindow).document.querySelector('[data-testid="ticket-result"]')?.textContent ??
          '';
        return text !== '' && !text.startsWith('Sending');
      },
      undefined,
      { timeout: 60_000 },
    );
    expect(await ticket('ticket-result').innerText()).toMatch(/BUY order (filled|placed): MATCHED/i);
    await expect
      .poll(async () => (await ctf.getFunction('balanceOf')(safe.address, yes)) as bigint, { timeout: 20_000 })
      .toBe(10_000_000n);
    expect((await usdc.getFunction('balanceOf')(safe.address)) as bigint).toBe(cash0 - 4_000_000n);
    expect((await usdc.getFunction('balanceOf')(safe.owner)) as bigint).toBe(ownerCash0);
  });
});
