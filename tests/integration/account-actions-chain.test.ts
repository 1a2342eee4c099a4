// The toolkit's on-chain actions through each account kind, on the sandbox chain with its proxy-wallet factory,
// Safes and MultiSend: a batch of calls built by accountTransactions runs AS the account (a proxy through the
// factory's proxy(calls), a Safe through execTransaction signed by its owner, several calls via MultiSend),
// the owner's key pays the gas, nothing is approved from the key itself, and an account the key does not own
// or a deposit wallet is refused before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, Interface, Wallet, getAddress, type TypedDataDomain } from 'ethers';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { TX_OVERRIDES, sandboxProvider } from '../../sandbox/chain/deploy';
import { accountTransactions, type ActionAccount } from '../../packages/toolkit/src/accounts/actions';
import { readSafeNonce } from '../../packages/toolkit/src/accounts/safe';
import { walletConfigSchema } from '../../packages/toolkit/src/chain/wallet-config';
import { AccountKind } from '../../packages/toolkit/src/accounts/derive';
import { isPmDeskError } from '../../packages/toolkit/src/model/errors';

const ERC20 = new Interface([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function allowance(address owner, address spender) view returns (uint256)',
]);
const SPENDER_A = '0x00000000000000000000000000000000000000a1';
const SPENDER_B = '0x00000000000000000000000000000000000000b2';

let sandbox: RunningSandbox;
let provider: ReturnType<typeof sandboxProvider>;
let collateral: Contract;

const accountOf = (kind: 'proxy' | 'safe' | 'deposit') => sandbox.profile.testAccounts.find((a) => a.kind === kind)!;
const ownerKey = (owner: string) =>
  sandbox.profile.testWallets.find((w) => getAddress(w.address) === getAddress(owner))!.privateKey;
const KIND = { proxy: AccountKind.PROXY, safe: AccountKind.SAFE, deposit: AccountKind.DEPOSIT_WALLET } as const;

async function run(kind: 'proxy' | 'safe', amounts: [bigint, bigint]) {
  const test = accountOf(kind);
  const owner = new Wallet(ownerKey(test.owner), provider);
  const account: ActionAccount = { kind: KIND[kind], address: test.address, owner: test.owner };
  const calls = [
    { to: sandbox.profile.contracts.collateral, data: ERC20.encodeFunctionData('approve', [SPENDER_A, amounts[0]]) },
    { to: sandbox.profile.contracts.collateral, data: ERC20.encodeFunctionData('approve', [SPENDER_B, amounts[1]]) },
  ];
  const plan = await accountTransactions(account, calls, {
    chainId: sandbox.profile.chainId,
    wallets: walletConfigSchema.parse(sandbox.profile.wallets),
    multiSend: sandbox.profile.wallets.multiSend,
    signer: { signTypedData: (domain: TypedDataDomain, types, value) => owner.signTypedData(domain, types, value) },
    safeNonce: (safe) => readSafeNonce(provider, safe),
  });
  for (const tx of plan.transactions) {
    expect(getAddress(tx.from)).toBe(getAddress(test.owner));
    const sent = await owner.sendTransaction({ to: tx.to, data: tx.data, value: tx.value, ...TX_OVERRIDES });
    expect((await sent.wait())?.status).toBe(1);
  }
  return { plan, test };
}

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0 }, simulate: 'off' });
  provider = sandboxProvider(sandbox.profile.rpcUrl, sandbox.profile.chainId);
  collateral = new Contract(sandbox.profile.contracts.collateral, ERC20, provider);
}, 120_000);

afterAll(async () => {
  provider?.destroy();
  await sandbox?.stop();
});

describe('on-chain actions through an account', () => {
  it.each(['proxy', 'safe'] as const)(
    'a %s runs a batch of approvals as the account, in one transaction from its owner',
    async (kind) => {
      const { plan, test } = await run(kind, [1_234_567n, 7_654_321n]);
      expect(plan.atomic).toBe(true);
      expect(plan.transactions).toHaveLength(1);
      expect(await collateral.getFunction('allowance')(test.address, SPENDER_A)).toBe(1_234_567n);
      expect(await collateral.getFunction('allowance')(test.address, SPENDER_B)).toBe(7_654_321n);
      // Never from the key itself (the pitfall of approving from the EOA for a proxy or Safe).
      expect(await collateral.getFunction('allowance')(test.owner, SPENDER_A)).toBe(0n);
    },
  );

  it("a Safe's nonce moves on, so a second action is signed for the next nonce and runs too", async () => {
    const safe = accountOf('safe').address;
    const before = await readSafeNonce(provider, safe);
    await run('safe', [5n, 6n]);
    expect(await readSafeNonce(provider, safe)).toBe(before + 1n);
    expect(await collateral.getFunction('allowance')(safe, SPENDER_B)).toBe(6n);
  });

  it("refuses, before building anything, another key's Safe and a deposit wallet (relayer only)", async () => {
    const safe = accountOf('safe');
    const proxyOwner = accountOf('proxy').owner;
    const wallets = walletConfigSchema.parse(sandbox.profile.wallets);
    const call = [
      { to: sandbox.profile.contracts.collateral, data: ERC20.encodeFunctionData('approve', [SPENDER_A, 1n]) },
    ];
    const notMine = accountTransactions({ kind: AccountKind.SAFE, address: safe.address, owner: proxyOwner }, call, {
      chainId: sandbox.profile.chainId,
      wallets,
    });
    await expect(notMine).rejects.toSatisfy((e) => isPmDeskError(e) && e.code === 'ERR_INVALID_PARAM');
    const deposit = accountOf('deposit');
    const relayerOnly = accountTransactions(
      { kind: AccountKind.DEPOSIT_WALLET, address: deposit.address, owner: deposit.owner },
      call,
      { chainId: sandbox.profile.chainId, wallets },
    );
    await expect(relayerOnly).rejects.toSatisfy((e) => isPmDeskError(e) && e.code === 'ERR_NOT_AVAILABLE');
  });
});
