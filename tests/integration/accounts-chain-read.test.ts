// findAccounts over a real JSON-RPC socket: an ethers provider against a small local node with fixed answers
// (eth_getCode, eth_call for balanceOf and the deposit-wallet factory's BEACON()).
import { JsonRpcProvider, Network } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { depositWalletEra, rpcChainRead } from '../../packages/toolkit/src/accounts/chain-read';
import { findAccounts } from '../../packages/toolkit/src/accounts/classify';
import { POLYGON_WALLETS } from '../../packages/toolkit/src/chain/wallet-config';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';

const KEY = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const SAFE = '0xd93B25cb943D14d0d34FBaF01Fc93a0f8b5F6E47';
const UUPS = '0xdf8b9E8f9AB23f261F6e1B171B7454ae6E46Ba76';
const PUSD = '0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB';
const USDCE = '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174';
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;

/** The node's state: code per address, balances per (token, holder), and what the factory's BEACON() does. */
const code = new Map<string, string>();
const balances = new Map<string, bigint>();
let beacon: 'revert' | 'zero' | 'address' | 'garbage' = 'address';
let server: FixtureServer;
let provider: JsonRpcProvider;

beforeAll(async () => {
  server = await startFixtureServer();
  server.on('POST', '/', (req, reply) => {
    const { id, method, params } = JSON.parse(req.body) as { id: number; method: string; params: unknown[] };
    const answer = (result: unknown) => reply.json(200, { jsonrpc: '2.0', id, result });
    if (method === 'eth_getCode') return answer(code.get((params[0] as string).toLowerCase()) ?? '0x');
    if (method === 'eth_call') {
      const { to, data } = params[0] as { to: string; data: string };
      if (data === '0x49493a4d') {
        if (beacon === 'revert')
          return reply.json(200, { jsonrpc: '2.0', id, error: { code: 3, message: 'execution reverted', data: '0x' } });
        return answer(
          beacon === 'zero'
            ? word(0n)
            : beacon === 'garbage'
              ? '0x1234'
              : word(0x7a18edfe055488a3128f01f563e5b479d92ffc3an),
        );
      }
      if (data.startsWith('0x70a08231')) {
        if (to.toLowerCase() === '0x000000000000000000000000000000000000dead') return answer('0x12');
        return answer(word(balances.get(`${to.toLowerCase()}:${data.slice(-40)}`) ?? 0n));
      }
    }
    return reply.json(200, { jsonrpc: '2.0', id, error: { code: -32601, message: `no fixture for ${method}` } });
  });
  provider = new JsonRpcProvider(server.url, Network.from(137), {
    staticNetwork: true,
    batchMaxCount: 1,
    cacheTimeout: -1,
  });
});
afterAll(async () => {
  provider.destroy();
  await server.stop();
});

describe('rpcChainRead', () => {
  it('feeds findAccounts: code and the summed pUSD + USDC.e balance per candidate', async () => {
    code.set(SAFE.toLowerCase(), '0x608060405234');
    balances.set(`${PUSD.toLowerCase()}:${UUPS.slice(2).toLowerCase()}`, 1_500_000n);
    balances.set(`${USDCE.toLowerCase()}:${UUPS.slice(2).toLowerCase()}`, 250_000n);
    const found = await findAccounts(KEY, {
      chainRead: rpcChainRead(provider, [PUSD, USDCE]),
      config: POLYGON_WALLETS,
    });
    expect(found.chosen).toMatchObject({
      address: UUPS,
      kind: 'deposit-wallet',
      era: 'uups',
      balance: 1_750_000n,
      deployed: false,
      foundBy: 'derivation',
    });
    expect(found.reason).toBe('funded');
    expect(found.alsoInUse.map((c) => [c.address, c.deployed])).toEqual([[SAFE, true]]);
    // The key's code is never read; each wallet's is, and each candidate's balance on both tokens.
    const calls = server.requests.map((r) => (JSON.parse(r.body) as { method: string }).method);
    expect(calls.filter((m) => m === 'eth_getCode')).toHaveLength(4);
    expect(calls.filter((m) => m === 'eth_call')).toHaveLength(10);
  });

  it('refuses a balance answer that is not one word, naming the holder and token', async () => {
    const read = rpcChainRead(provider, ['0x000000000000000000000000000000000000dEaD']);
    const error = await read.collateralBalance(KEY).catch((e: PmDeskError) => e);
    expect((error as PmDeskError).code).toBe('ERR_VALIDATION');
    expect((error as PmDeskError).detail).toBe(
      `balanceOf(${KEY}) on 0x000000000000000000000000000000000000dEaD answered 0x12, not one 32-byte word.`,
    );
  });
});

describe('depositWalletEra', () => {
  it("reads the factory's BEACON(): an address is the beacon era, a revert or zero the UUPS era", async () => {
    const factory = POLYGON_WALLETS.depositWalletFactory!;
    beacon = 'address';
    expect(await depositWalletEra(provider, factory)).toBe('beacon');
    beacon = 'zero';
    expect(await depositWalletEra(provider, factory)).toBe('uups');
    beacon = 'revert';
    expect(await depositWalletEra(provider, factory)).toBe('uups');
    beacon = 'garbage';
    expect(((await depositWalletEra(provider, factory).catch((e: PmDeskError) => e)) as PmDeskError).detail).toBe(
      `BEACON() on ${factory} answered 0x1234, not one 32-byte word.`,
    );
  });
});
