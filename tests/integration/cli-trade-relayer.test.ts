// `pmdesk trade` from a proxy wallet, a Safe and a deposit wallet that have never approved the exchange (not even
// deployed yet), the owner key holding NO POL: the approvals go through Polymarket's relayer as one batch (the
// wallet deployed through it first, or by its first relayed call for a proxy), then the first order is placed —
// read back from the chain (allowances, code) and the exchange.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, MaxUint256, getAddress, parseUnits, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContracts, sandboxProvider, TX_OVERRIDES } from '../../sandbox/chain/index';
import { deriveAccounts } from '../../packages/toolkit/src/accounts/derive';
import { parseNetworkProfile, walletConfigFor } from '../../packages/toolkit/src/chain/networks';
import { PASSWORD, startTradingSandbox, type TradingSandbox } from '../helpers/trading-sandbox';
import { runPmdesk, type PmdeskRun } from '../helpers/pmdesk-process';

const SLOW = 240_000;
const HEX_TX = /^0x[0-9a-f]{64}$/;
let sb: TradingSandbox;
let provider: ReturnType<typeof sandboxProvider>;
let dir: string;
let env: Record<string, string>;
let owner: { address: string; privateKey: string };
let accounts: { proxy: string; safe: string; deposit: string };

function pmdesk(args: string[], input?: string): Promise<PmdeskRun> {
  return runPmdesk(args, { env: { PMDESK_PASSWORD: PASSWORD, ...env }, ...(input === undefined ? {} : { input }) });
}
const allowance = (holder: string, spender: string) =>
  new Contract(
    sb.sandbox.profile.contracts.collateral,
    ['function allowance(address, address) view returns (uint256)'],
    provider,
  ).getFunction('allowance')(holder, spender) as Promise<bigint>;
const operatorApproved = (holder: string, spender: string) =>
  new Contract(
    sb.sandbox.profile.contracts.conditionalTokens,
    ['function isApprovedForAll(address, address) view returns (bool)'],
    provider,
  ).getFunction('isApprovedForAll')(holder, spender) as Promise<boolean>;

beforeAll(async () => {
  sb = await startTradingSandbox();
  provider = sandboxProvider(sb.sandbox.profile.rpcUrl, sb.sandbox.profile.chainId);
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-cli-trade-relayer-'));
  const profileFile = join(dir, 'pmdesk-sandbox-profile.json');
  await writeFile(profileFile, JSON.stringify(sb.sandbox.profile));
  env = { TMPDIR: dir, PMDESK_DATA_DIR: join(dir, 'data') };
  // The first test wallet owns no test account: its Safe and deposit wallet have no code and no approval; the
  // sandbox profile gives it a relayer API key.
  owner = sb.sandbox.profile.testWallets[0]!;
  const derived = deriveAccounts(owner.address, walletConfigFor(parseNetworkProfile(sb.sandbox.profile)));
  accounts = { proxy: derived.proxy!, safe: derived.safe!, deposit: derived.depositWallet!.beacon! };
  const minter = new Wallet(sb.sandbox.deployment.operator.privateKey, provider);
  const pusd = new Contract(sb.sandbox.profile.contracts.collateral, compileContracts().Collateral.abi, minter);
  for (const holder of Object.values(accounts))
    await (await pusd.getFunction('mint')(holder, parseUnits('20', 6), TX_OVERRIDES)).wait();
  await provider.send('anvil_setBalance', [owner.address, '0x0']);
  const imported = await pmdesk(
    ['wallet', 'import', '--label', 'owner', '--private-key-stdin', '--json'],
    owner.privateKey,
  );
  expect(imported.code, imported.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  provider?.destroy();
  await sb?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a first order from an account with no approvals, the key holding no POL', () => {
  it.each(['deposit', 'safe', 'proxy'] as const)(
    'as a %s: approvals through the relayer (deploying it first), then the order',
    async (kind) => {
      const holder = accounts[kind];
      expect(await provider.getCode(holder)).toBe('0x');
      const { exchange, negRiskExchange } = sb.sandbox.profile.contracts;
      expect(await allowance(holder, exchange)).toBe(0n);

      const run = await pmdesk([
        'trade',
        'buy',
        '--market',
        '90021',
        '--outcome',
        'Yes',
        '--usdc',
        '1',
        '--price',
        '0.1',
        '--account',
        holder,
        '--json',
      ]);
      expect(run.code, run.stderr).toBe(0);
      const out = JSON.parse(run.stdout) as {
        orderID: string;
        status: string;
        approvals: { spender: string; txHash: string }[];
        account: { address: string; kind: string };
      };
      expect(out).toMatchObject({
        orderID: expect.stringMatching(HEX_TX),
        status: 'LIVE',
        account: { address: getAddress(holder), kind: kind === 'deposit' ? 'deposit-wallet' : kind },
      });
      // One relayed batch: every approval carries its one transaction.
      expect(out.approvals.map((a) => a.spender)).toEqual([exchange, negRiskExchange, exchange, negRiskExchange]);
      expect(new Set(out.approvals.map((a) => a.txHash)).size).toBe(1);
      expect(out.approvals[0]!.txHash).toMatch(HEX_TX);

      expect(await provider.getCode(holder)).not.toBe('0x');
      for (const spender of [exchange, negRiskExchange]) {
        expect(await allowance(holder, spender)).toBe(MaxUint256);
        expect(await operatorApproved(holder, spender)).toBe(true);
      }
      expect(await provider.getBalance(owner.address)).toBe(0n);

      // The next order needs no approval again.
      const again = await pmdesk([
        'trade',
        'buy',
        '--market',
        '90021',
        '--outcome',
        'Yes',
        '--usdc',
        '1',
        '--price',
        '0.1',
        '--account',
        holder,
        '--json',
      ]);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ approvals: [] });
    },
    SLOW,
  );
});
