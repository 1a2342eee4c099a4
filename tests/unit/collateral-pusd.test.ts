// pUSD wrap/unwrap calldata (docs/protocol.md#collateral) decoded back with ethers, the documented
// selectors, amounts through the toolkit's one rounding place, the calls run as a proxy wallet, and balances.
import { Interface, toBeHex } from 'ethers';
import { describe, expect, it } from 'vitest';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { accountTransactions } from '../../packages/toolkit/src/accounts/actions';
import { POLYGON_WALLETS } from '../../packages/toolkit/src/chain/wallet-config';
import { POLYGON_ACTION_CONTRACTS, actionContractsFor } from '../../packages/toolkit/src/accounts/action-contracts';
import { POLYGON } from '../../packages/toolkit/src/chain/networks';
import {
  collateralBalances,
  collateralBaseUnits,
  tokenBalance,
  unwrapCalls,
  wrapCalls,
} from '../../packages/toolkit/src/collateral/pusd';

const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PROXY = '0x365f0CA36Ae1f641E02fE3B7743673da42A13A70';
const USDCE = '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174';
const PUSD = '0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB';
const ONRAMP = '0x93070a847efEf7F70739046A929D47a521F5B8ee';
const OFFRAMP = '0x2957922Eb93258b93368531d39fAcCA3B4dC5854';
const SELECTOR = { approve: '0x095ea7b3', wrap: '0x62355638', unwrap: '0x8cc7104f', proxy: '0x34ee9791' };

const abi = new Interface([
  'function approve(address spender, uint256 amount)',
  'function wrap(address _asset, address _to, uint256 _amount)',
  'function unwrap(address _asset, address _to, uint256 _amount)',
  'function proxy((uint8 typeCode, address to, uint256 value, bytes data)[] calls)',
]);

const fail = (run: () => unknown): PmDeskError => {
  try {
    run();
  } catch (error) {
    return error as PmDeskError;
  }
  throw new Error('expected a refusal');
};

describe('wrapCalls', () => {
  it('approves the onramp (not pUSD) for USDC.e, then wraps USDC.e to the account', () => {
    const calls = wrapCalls(POLYGON_ACTION_CONTRACTS, PROXY, 12.5);
    expect(calls.map((c) => [c.to, c.data.slice(0, 10)])).toEqual([
      [USDCE, SELECTOR.approve],
      [ONRAMP, SELECTOR.wrap],
    ]);
    expect([...abi.decodeFunctionData('approve', calls[0]!.data)]).toEqual([ONRAMP, 12_500_000n]);
    expect([...abi.decodeFunctionData('wrap', calls[1]!.data)]).toEqual([USDCE, PROXY, 12_500_000n]);
  });

  it('takes base units as they are, and dollars through the rounding place (half up past 6 decimals)', () => {
    expect(collateralBaseUnits(1n)).toBe(1n);
    expect(collateralBaseUnits(0.1234565)).toBe(123_457n);
    expect(collateralBaseUnits(100)).toBe(100_000_000n);
    expect(fail(() => collateralBaseUnits(0)).detail).toMatch(/more than zero/);
    expect(fail(() => collateralBaseUnits(0n)).code).toBe('ERR_INVALID_PARAM');
    expect(fail(() => collateralBaseUnits(-1)).code).toBe('ERR_INVALID_PARAM');
  });

  it('runs inside a proxy wallet as one proxy(calls) from the owner: the approval is the wallet’s, not the key’s', async () => {
    const plan = await accountTransactions(
      { kind: 'proxy', address: PROXY, owner: OWNER },
      wrapCalls(POLYGON_ACTION_CONTRACTS, PROXY, 5_000_000n),
      {
        chainId: 137,
        wallets: POLYGON_WALLETS,
      },
    );
    expect(plan.transactions).toHaveLength(1);
    expect(plan.transactions[0]!.to).toBe(POLYGON_WALLETS.proxyFactory);
    expect(plan.transactions[0]!.data.slice(0, 10)).toBe(SELECTOR.proxy);
    const [inner] = abi.decodeFunctionData('proxy', plan.transactions[0]!.data);
    expect((inner as unknown[][]).map((c) => c[1])).toEqual([USDCE, ONRAMP]);
  });

  it('refuses on a network without an onramp, naming the field', () => {
    const sandboxLike = actionContractsFor({ name: 'sandbox', chainId: 31338, contracts: { collateral: PUSD } });
    const error = fail(() => wrapCalls(sandboxLike, PROXY, 1));
    expect(error.code).toBe('ERR_INVALID_PARAM');
    expect(error.detail).toBe('This network has no usdcE address, which wrapping into pUSD needs.');
  });
});

describe('unwrapCalls', () => {
  it('approves the offramp for pUSD, then unwraps to USDC.e paid to the account (or another recipient)', () => {
    const calls = unwrapCalls(POLYGON_ACTION_CONTRACTS, PROXY, 2_000_000n);
    expect(calls.map((c) => [c.to, c.data.slice(0, 10)])).toEqual([
      [PUSD, SELECTOR.approve],
      [OFFRAMP, SELECTOR.unwrap],
    ]);
    expect([...abi.decodeFunctionData('approve', calls[0]!.data)]).toEqual([OFFRAMP, 2_000_000n]);
    expect([...abi.decodeFunctionData('unwrap', calls[1]!.data)]).toEqual([USDCE, PROXY, 2_000_000n]);
    const toOwner = unwrapCalls(POLYGON_ACTION_CONTRACTS, PROXY, 2_000_000n, OWNER);
    expect(abi.decodeFunctionData('unwrap', toOwner[1]!.data)[1]).toBe(OWNER);
  });
});

describe('actionContractsFor', () => {
  it('gives Polygon its published set and any other chain only what its profile names', () => {
    expect(actionContractsFor(POLYGON)).toEqual(POLYGON_ACTION_CONTRACTS);
    expect(
      actionContractsFor({ name: 'sandbox', chainId: 31338, contracts: { collateral: PUSD.toLowerCase() } }),
    ).toEqual({ collateral: PUSD });
    expect(actionContractsFor(POLYGON, { router: OWNER }).router).toBe(OWNER);
    expect(fail(() => actionContractsFor(POLYGON, { router: '0x12' })).code).toBe('ERR_INVALID_PARAM');
  });
});

describe('balances', () => {
  const word = (n: bigint) => toBeHex(n, 32);
  it('reads pUSD and USDC.e for an address with balanceOf', async () => {
    const asked: string[] = [];
    const rpc = {
      call: async ({ to, data }: { to: string; data: string }) => {
        asked.push(`${to} ${data.slice(0, 10)} 0x${data.slice(-40)}`);
        return word(to === PUSD ? 7n : 3_000_000n);
      },
    };
    expect(await collateralBalances(rpc, POLYGON_ACTION_CONTRACTS, PROXY)).toEqual({ pusd: 7n, usdcE: 3_000_000n });
    expect(asked.sort()).toEqual(
      [`${PUSD} 0x70a08231 ${PROXY.toLowerCase()}`, `${USDCE} 0x70a08231 ${PROXY.toLowerCase()}`].sort(),
    );
    expect(await collateralBalances(rpc, { collateral: PUSD }, PROXY)).toEqual({ pusd: 7n });
  });

  it('an answer that is not one word is ERR_VALIDATION naming the holder and token', async () => {
    let error: PmDeskError | undefined;
    await tokenBalance({ call: async () => '0x1234' }, PUSD, PROXY).catch((e: PmDeskError) => (error = e));
    expect(error?.code).toBe('ERR_VALIDATION');
    expect(error?.detail).toBe(`balanceOf(${PROXY}) on ${PUSD} answered 0x1234, not one 32-byte word.`);
  });
});
