// The sandbox's money: pUSD is the exchange's collateral and the collateral onramp wraps USDC.e into it (and back)
// 1:1 with Polymarket's wrap/unwrap signatures, the CLOB's balance view staying cached until
// /balance-allowance/update; and a market with fees charges its taker Polymarket's fee at match time, the exact
// formula's amount moving on the chain to the fee recipient — on a buy on top of the price, on a sell out of
// the proceeds, makers paying nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, MaxUint256, Wallet } from 'ethers';
import { TX_OVERRIDES, compileContracts } from '../../sandbox/chain/index';
import { mined } from '../../sandbox/chain/deploy';
import { takerFee } from '../../sandbox/market/fees';
import {
  credsOf,
  l2Request,
  limitOrder,
  postOrder,
  signedOrderJson,
  startClobSandbox,
  type ClobSandbox,
} from '../helpers/sandbox-clob';

const usdc = (n: number) => BigInt(Math.round(n * 1e6));

describe('pUSD and the collateral onramp', () => {
  let sb: ClobSandbox;
  let alice: Wallet;
  let bob: Wallet;
  let usdcE: Contract;
  let pusd: Contract;
  let onramp: Contract;

  beforeAll(async () => {
    sb = await startClobSandbox({ orderVersion: 2 });
    [alice, bob] = sb.wallets as [Wallet, Wallet];
    const compiled = compileContracts();
    usdcE = new Contract(sb.chain.contracts.usdcE, compiled.Collateral.abi, sb.provider);
    pusd = new Contract(sb.chain.contracts.collateral, compiled.Collateral.abi, sb.provider);
    onramp = new Contract(sb.chain.contracts.collateralOnramp, compiled.CollateralOnramp.abi, sb.provider);
  });
  afterAll(async () => sb?.stop());

  const balance = async (token: Contract, address: string) => (await token.getFunction('balanceOf')(address)) as bigint;
  const send = (contract: Contract, wallet: Wallet, method: string, args: unknown[]) =>
    mined((contract.connect(wallet) as Contract).getFunction(method)(...args, TX_OVERRIDES));
  const view = async (path: string) =>
    (
      await l2Request(
        sb.server.url,
        alice,
        credsOf(sb, alice),
        'GET',
        path,
        undefined,
        '?asset_type=COLLATERAL&signature_type=0',
      )
    ).body as { balance: string };

  it('names both tokens, with Polymarket’s selectors, and funds test wallets and accounts with USDC.e', async () => {
    expect(await usdcE.getFunction('symbol')()).toBe('USDC.e');
    expect(await pusd.getFunction('symbol')()).toBe('pUSD');
    expect(await usdcE.getFunction('decimals')()).toBe(6n);
    expect(onramp.interface.getFunction('wrap')!.selector).toBe('0x62355638');
    expect(onramp.interface.getFunction('unwrap')!.selector).toBe('0x8cc7104f');
    expect(await onramp.getFunction('usdce')()).toBe(sb.chain.contracts.usdcE);
    for (const w of sb.chain.testWallets) expect(await balance(usdcE, w.address)).toBe(usdc(10_000));
    for (const a of sb.chain.testAccounts) expect(await balance(usdcE, a.address)).toBe(usdc(10_000));
  });

  it('wraps USDC.e into pUSD 1:1; the CLOB shows it once asked to update its cached view', async () => {
    const before = BigInt((await view('/balance-allowance')).balance);
    expect(before).toBe(await balance(pusd, alice.address));
    await send(usdcE, alice, 'approve', [sb.chain.contracts.collateralOnramp, usdc(25)]);
    await send(onramp, alice, 'wrap', [sb.chain.contracts.usdcE, alice.address, usdc(25)]);
    expect(await balance(pusd, alice.address)).toBe(before + usdc(25));
    expect(await balance(usdcE, alice.address)).toBe(usdc(10_000 - 25));
    // Polymarket's CLOB caches balances: the plain read is stale until /balance-allowance/update.
    expect(BigInt((await view('/balance-allowance')).balance)).toBe(before);
    expect(BigInt((await view('/balance-allowance/update')).balance)).toBe(before + usdc(25));
    expect(BigInt((await view('/balance-allowance')).balance)).toBe(before + usdc(25));
  });

  it('unwraps pUSD into USDC.e for another address, burning the pUSD', async () => {
    const supply = (await pusd.getFunction('totalSupply')()) as bigint;
    const [alicePusd, bobUsdce] = [await balance(pusd, alice.address), await balance(usdcE, bob.address)];
    await send(pusd, alice, 'approve', [sb.chain.contracts.collateralOnramp, usdc(10)]);
    await send(onramp, alice, 'unwrap', [sb.chain.contracts.usdcE, bob.address, usdc(10)]);
    expect(await balance(pusd, alice.address)).toBe(alicePusd - usdc(10));
    expect(await balance(usdcE, bob.address)).toBe(bobUsdce + usdc(10));
    expect(await pusd.getFunction('totalSupply')()).toBe(supply - usdc(10));
  });

  it('refuses another asset, a caller without the approval, and everything while paused', async () => {
    await send(usdcE, alice, 'approve', [sb.chain.contracts.collateralOnramp, MaxUint256]);
    const call = (method: string, asset: string) =>
      (onramp.connect(alice) as Contract)
        .getFunction(method)
        .staticCall(asset, alice.address, usdc(1), { from: alice.address });
    const wrongAsset = await call('wrap', sb.chain.contracts.collateral).catch((e: unknown) => e);
    expect(onramp.interface.parseError((wrongAsset as { data: string }).data)?.name).toBe('UnsupportedAsset');
    await send(pusd, alice, 'approve', [sb.chain.contracts.collateralOnramp, 0n]);
    await expect(call('unwrap', sb.chain.contracts.usdcE)).rejects.toThrow();
    const admin = new Wallet(sb.chain.operator.privateKey, sb.provider);
    await send(onramp, admin, 'setPaused', [true]);
    try {
      const error = await call('wrap', sb.chain.contracts.usdcE).catch((e: unknown) => e);
      expect(onramp.interface.parseError((error as { data: string }).data)?.name).toBe('OnlyUnpaused');
    } finally {
      await send(onramp, admin, 'setPaused', [false]);
    }
    await call('wrap', sb.chain.contracts.usdcE);
  });
});

describe('fees charged at match time', () => {
  let sb: ClobSandbox;
  let alice: Wallet;
  let bob: Wallet;
  let carol: Wallet;

  beforeAll(async () => {
    sb = await startClobSandbox({ orderVersion: 2 });
    [alice, bob, carol] = sb.wallets as [Wallet, Wallet, Wallet];
    // The crypto market charges crypto's rate for these tests (the catalog leaves it fee-free by default).
    sb.binary.fees = { rate: 0.072, exponent: 1, takerOnly: true };
  });
  afterAll(async () => sb?.stop());

  const feesPaid = () => sb.collateralOf(sb.chain.feeRecipient);
  const take = async (wallet: Wallet, fields: ReturnType<typeof limitOrder>) => {
    const creds = credsOf(sb, wallet);
    const order = await signedOrderJson(sb, wallet, fields);
    const response = await l2Request(
      sb.server.url,
      wallet,
      creds,
      'POST',
      '/order',
      JSON.stringify({ deferExec: false, postOnly: false, order, owner: creds.key, orderType: 'FOK' }),
    );
    expect(response.body).toMatchObject({ success: true, status: 'matched' });
    return response.body as { tradeIDs: string[] };
  };

  it('reports the market’s fee parameters on the CLOB’s market reads', async () => {
    const read = async (path: string) =>
      (await (await fetch(`${sb.server.url}${path}`)).json()) as {
        fd?: unknown;
        base_fee?: number;
        taker_base_fee?: number;
      };
    expect((await read(`/clob-markets/${sb.binary.conditionId}`)).fd).toEqual({ r: 0.072, e: 1, to: true });
    expect(await read(`/fee-rate?token_id=${sb.binary.tokens[0].tokenId}`)).toEqual({ base_fee: 720 });
    expect((await read(`/markets/${sb.binary.conditionId}`)).taker_base_fee).toBe(720);
    const free = sb.catalog.market('90051')!;
    expect((await read(`/clob-markets/${free.conditionId}`)).fd).toEqual({ r: 0, e: 0, to: true });
    expect(await read(`/fee-rate?token_id=${free.tokens[0].tokenId}`)).toEqual({ base_fee: 0 });
  });

  it('a buying taker pays the formula’s fee in pUSD on top of the price; the maker pays none', async () => {
    const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
    // Alice bids 0.70 for 1000 No; Bob takes 1000 Yes at 0.30 against it (a MINT).
    await postOrder(sb, alice, limitOrder(no, 'BUY', 0.7, 1000));
    const [fees0, alice0, bob0] = [
      await feesPaid(),
      await sb.collateralOf(alice.address),
      await sb.collateralOf(bob.address),
    ];
    expect(fees0).toBe(0n);
    await take(bob, limitOrder(yes, 'BUY', 0.3, 1000));
    // 1000 × 0.072 × 0.30 × 0.70 = 15.12
    const fee = usdc(15.12);
    expect(takerFee(sb.binary.fees, [{ shares: usdc(1000), takerPrice: 3000 }])).toBe(fee);
    expect((await feesPaid()) - fees0).toBe(fee);
    expect(bob0 - (await sb.collateralOf(bob.address))).toBe(usdc(300) + fee);
    expect(await sb.sharesOf(bob.address, yes)).toBe(usdc(1000));
    expect(alice0 - (await sb.collateralOf(alice.address))).toBe(usdc(700));
    expect(await sb.sharesOf(alice.address, no)).toBe(usdc(1000));
  });

  it('a selling taker pays it out of the proceeds, and the trade states the rate', async () => {
    const yes = sb.binary.tokens[0].tokenId;
    await postOrder(sb, carol, limitOrder(yes, 'BUY', 0.4, 500));
    const [fees0, bob0, carol0] = [
      await feesPaid(),
      await sb.collateralOf(bob.address),
      await sb.collateralOf(carol.address),
    ];
    const { tradeIDs } = await take(bob, limitOrder(yes, 'SELL', 0.4, 500));
    // 500 × 0.072 × 0.40 × 0.60 = 8.64
    expect((await feesPaid()) - fees0).toBe(usdc(8.64));
    expect((await sb.collateralOf(bob.address)) - bob0).toBe(usdc(200) - usdc(8.64));
    expect(carol0 - (await sb.collateralOf(carol.address))).toBe(usdc(200));
    expect(await sb.sharesOf(carol.address, yes)).toBe(usdc(500));
    const trades = await l2Request(
      sb.server.url,
      bob,
      credsOf(sb, bob),
      'GET',
      '/data/trades',
      undefined,
      `?id=${tradeIDs[0]}`,
    );
    expect(trades.body.data[0]).toMatchObject({ fee_rate_bps: '720', trader_side: 'TAKER' });
  });

  it('refuses a buying taker who can pay the price but not the fee, and puts the maker back', async () => {
    const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
    const dave = sb.wallets[3]!;
    const pusd = new Contract(
      sb.chain.contracts.collateral,
      ['function approve(address,uint256) returns (bool)'],
      dave,
    );
    await mined(pusd.getFunction('approve')(sb.chain.contracts.exchange, usdc(30), TX_OVERRIDES));
    const resting = await postOrder(sb, alice, limitOrder(no, 'BUY', 0.7, 100));
    const [fees0, dave0] = [await feesPaid(), await sb.collateralOf(dave.address)];
    const creds = credsOf(sb, dave);
    const order = await signedOrderJson(sb, dave, limitOrder(yes, 'BUY', 0.3, 100));
    const response = await l2Request(
      sb.server.url,
      dave,
      creds,
      'POST',
      '/order',
      JSON.stringify({ order, owner: creds.key, orderType: 'FOK' }),
    );
    // 100 × 0.072 × 0.21 = 1.512 on top of the 30.
    expect(response.body).toMatchObject({
      success: false,
      errorMsg: 'not enough balance / allowance: allowance 30 available, 31.512 needed by this order and its taker fee',
    });
    expect(sb.server.openOrderIds(credsOf(sb, alice).key)).toContain(resting);
    expect([await feesPaid(), await sb.collateralOf(dave.address)]).toEqual([fees0, dave0]);
  });

  it('charges nothing on a fee-free market', async () => {
    const free = sb.catalog.market('90051')!;
    const [yes, no] = [free.tokens[0].tokenId, free.tokens[1].tokenId];
    await postOrder(sb, alice, limitOrder(no, 'BUY', 0.8, 100));
    const [fees0, bob0] = [await feesPaid(), await sb.collateralOf(bob.address)];
    await take(bob, limitOrder(yes, 'BUY', 0.2, 100));
    expect(await feesPaid()).toBe(fees0);
    expect(bob0 - (await sb.collateralOf(bob.address))).toBe(usdc(20));
  });
});

describe('fees on order version 1', () => {
  let sb: ClobSandbox;
  let alice: Wallet;
  let bob: Wallet;

  beforeAll(async () => {
    sb = await startClobSandbox({ orderVersion: 1 });
    [alice, bob] = sb.wallets as [Wallet, Wallet];
  });
  afterAll(async () => sb?.stop());

  it('wants the market’s rate signed into the order, and the exchange charges it from there, not at match time', async () => {
    const tech = sb.catalog.market('90041')!;
    const [yes, no] = [tech.tokens[0].tokenId, tech.tokens[1].tokenId];
    expect(await (await fetch(`${sb.server.url}/fee-rate?token_id=${yes}`)).json()).toEqual({ base_fee: 400 });
    const creds = credsOf(sb, bob);
    const unsigned = await signedOrderJson(sb, bob, limitOrder(yes, 'BUY', 0.4, 100));
    const refusal = await l2Request(
      sb.server.url,
      bob,
      creds,
      'POST',
      '/order',
      JSON.stringify({ order: unsigned, owner: creds.key, orderType: 'GTC' }),
    );
    expect(refusal.body.errorMsg).toBe('invalid user provided fee rate: (0), fee rate for the market must be 400');

    await postOrder(sb, alice, { ...limitOrder(no, 'BUY', 0.6, 100), feeRateBps: 400n });
    const fees0 = await sb.collateralOf(sb.chain.feeRecipient);
    const bob0 = await sb.collateralOf(bob.address);
    await postOrder(sb, bob, { ...limitOrder(yes, 'BUY', 0.4, 100), feeRateBps: 400n });
    // Version 1's symmetric fee on a BUY is in shares: 0.04 × min(0.4, 0.6) × 100 / 0.4 = 4 of the 100.
    expect(await sb.sharesOf(bob.address, yes)).toBe(usdc(96));
    expect(bob0 - (await sb.collateralOf(bob.address))).toBe(usdc(40));
    expect(await sb.collateralOf(sb.chain.feeRecipient)).toBe(fees0);
  });
});
