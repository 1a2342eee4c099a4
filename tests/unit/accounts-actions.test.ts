// On-chain actions through each account kind (docs/protocol.md#on-chain-actions-per-account): the owner's transaction decoded back with
// ethers and checked against the documented selectors; Safe hashes recomputed by hand from Safe 1.3.0's type hashes;
// signatures recovered both ways; MultiSend's packed layout read byte by byte; the gas check's sentence.
import {
  AbiCoder,
  Interface,
  TypedDataEncoder,
  Wallet,
  concat,
  getBytes,
  keccak256,
  toBeHex,
  zeroPadValue,
} from 'ethers';
import { describe, expect, it } from 'vitest';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import {
  DEPOSIT_WALLET_RELAYER_ONLY,
  accountTransactions,
  proxyFactoryData,
  type ChainCall,
} from '../../packages/toolkit/src/accounts/actions';
import {
  checkGasFunds,
  formatPol,
  formatPolNeeded,
  quoteGas,
  type GasReader,
} from '../../packages/toolkit/src/accounts/gas';
import {
  packMultiSend,
  packSafeSignature,
  readSafeNonce,
  recoverSafeSigner,
  safeTxFor,
  safeTxTypedData,
  unpackMultiSend,
} from '../../packages/toolkit/src/accounts/safe';
import { POLYGON_WALLETS } from '../../packages/toolkit/src/chain/wallet-config';
import { SAFE_MULTISEND_130 } from '../../packages/toolkit/src/accounts/action-contracts';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';

/** Hardhat's first public test key and its wallets on Polygon (docs/protocol.md#address-derivation row 1). */
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PROXY = '0x365f0CA36Ae1f641E02fE3B7743673da42A13A70';
const SAFE = '0xd93B25cb943D14d0d34FBaF01Fc93a0f8b5F6E47';
const DEPOSIT = '0xBc0fF067b7740Eff76C1ca93c875Ba6B890d6B50';
/** The second public test key: owns none of the above. */
const OTHER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const PUSD = '0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB';
const CTF = '0x4D97DCd97eC945f40cF65F87097ACe5EA0476045';
const EXCHANGE_V2 = '0xE111180000d2663C0091e4f400237545B87B996B';

/** The documented selectors (docs/protocol.md#on-chain-actions-per-account). */
const SELECTOR = {
  proxy: '0x34ee9791',
  execTransaction: '0x6a761202',
  multiSend: '0x8d80ff0a',
  approve: '0x095ea7b3',
  setApprovalForAll: '0xa22cb465',
};

const erc20 = new Interface(['function approve(address spender, uint256 amount)']);
const erc1155 = new Interface(['function setApprovalForAll(address operator, bool approved)']);
const MAX = 2n ** 256n - 1n;
const CALLS: ChainCall[] = [
  { to: PUSD, data: erc20.encodeFunctionData('approve', [EXCHANGE_V2, MAX]) },
  { to: CTF, data: erc1155.encodeFunctionData('setApprovalForAll', [EXCHANGE_V2, true]) },
];
const reader = new Interface([
  'function proxy((uint8 typeCode, address to, uint256 value, bytes data)[] calls)',
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures)',
  'function multiSend(bytes transactions)',
]);

const fail = async (run: () => unknown): Promise<PmDeskError> => {
  try {
    await run();
  } catch (error) {
    return error as PmDeskError;
  }
  throw new Error('expected a refusal');
};

const safeOptions = (key = KEY, nonce = 7n) => ({
  chainId: 137,
  wallets: POLYGON_WALLETS,
  signer: privateKeySigner(key),
  safeNonce: async () => nonce,
});

/** Safe 1.3.0's getTransactionHash, written out from its type hashes without ethers' typed-data encoder. */
function safeTxHashByHand(
  chainId: number,
  safe: string,
  tx: { to: string; value: bigint; data: string; operation: number; nonce: bigint },
): string {
  const abi = AbiCoder.defaultAbiCoder();
  const DOMAIN_TYPEHASH = '0x47e79534a245952e8b16893a336b85a3d9ea9fa8c573f3d803afb92a79469218';
  const SAFE_TX_TYPEHASH = '0xbb8310d486368db6bd6f849402fdd73ad53d316b5a4b2644ad6efe0f941286d8';
  const domainSeparator = keccak256(abi.encode(['bytes32', 'uint256', 'address'], [DOMAIN_TYPEHASH, chainId, safe]));
  const zero = '0x0000000000000000000000000000000000000000';
  const structHash = keccak256(
    abi.encode(
      [
        'bytes32',
        'address',
        'uint256',
        'bytes32',
        'uint8',
        'uint256',
        'uint256',
        'uint256',
        'address',
        'address',
        'uint256',
      ],
      [SAFE_TX_TYPEHASH, tx.to, tx.value, keccak256(tx.data), tx.operation, 0, 0, 0, zero, zero, tx.nonce],
    ),
  );
  return keccak256(concat(['0x1901', domainSeparator, structHash]));
}

describe('accountTransactions: the key itself (type 0)', () => {
  it('sends one call as it is, from the key', async () => {
    const plan = await accountTransactions({ kind: 'eoa', address: OWNER, owner: OWNER }, [CALLS[0]!], {
      chainId: 137,
      wallets: POLYGON_WALLETS,
    });
    expect(plan.transactions).toEqual([{ from: OWNER, to: PUSD, data: CALLS[0]!.data, value: 0n }]);
    expect(plan.atomic).toBe(true);
    expect(plan.note).toBeUndefined();
  });

  it('sends several calls as several transactions and says they are not all-or-nothing', async () => {
    const plan = await accountTransactions({ kind: 'eoa', address: OWNER, owner: OWNER }, CALLS, {
      chainId: 137,
      wallets: POLYGON_WALLETS,
    });
    expect(plan.transactions.map((t) => t.to)).toEqual([PUSD, CTF]);
    expect(plan.transactions.every((t) => t.from === OWNER)).toBe(true);
    expect(plan.atomic).toBe(false);
    expect(plan.note).toMatch(/cannot batch: these 2 calls are 2 transactions/);
  });

  it('never sends from the key for an address that is not the key: a stranger is refused, a wallet named as the key is refused', async () => {
    const stranger = await fail(() =>
      accountTransactions({ kind: 'eoa', address: OTHER, owner: OWNER }, CALLS, {
        chainId: 137,
        wallets: POLYGON_WALLETS,
      }),
    );
    expect(stranger.code).toBe('ERR_INVALID_PARAM');
    expect(stranger.detail).toMatch(/does not match the signer/);
    const safeAsKey = await fail(() =>
      accountTransactions({ kind: 'eoa', address: SAFE, owner: OWNER }, CALLS, {
        chainId: 137,
        wallets: POLYGON_WALLETS,
      }),
    );
    expect(safeAsKey.code).toBe('ERR_INVALID_PARAM');
    expect(safeAsKey.detail).toBe(`The account ${SAFE} is the key's Safe, not its own address; nothing was built.`);
  });

  it('refuses an empty action and calldata that is not hex', async () => {
    expect(
      (
        await fail(() =>
          accountTransactions({ kind: 'eoa', address: OWNER, owner: OWNER }, [], {
            chainId: 137,
            wallets: POLYGON_WALLETS,
          }),
        )
      ).code,
    ).toBe('ERR_INVALID_PARAM');
    const bad = await fail(() =>
      accountTransactions({ kind: 'eoa', address: OWNER, owner: OWNER }, [{ to: PUSD, data: '0x12z4' }], {
        chainId: 137,
        wallets: POLYGON_WALLETS,
      }),
    );
    expect(bad.detail).toMatch(/not hex bytes/);
  });
});

describe('accountTransactions: proxy wallet (type 1)', () => {
  it('is one proxy(calls) to the proxy factory from the owner, every call CALL (typeCode 1) as the wallet', async () => {
    const plan = await accountTransactions({ kind: 'proxy', address: PROXY, owner: OWNER }, CALLS, {
      chainId: 137,
      wallets: POLYGON_WALLETS,
    });
    expect(plan.atomic).toBe(true);
    expect(plan.transactions).toHaveLength(1);
    const [tx] = plan.transactions;
    expect(tx!.from).toBe(OWNER);
    expect(tx!.to).toBe(POLYGON_WALLETS.proxyFactory);
    expect(tx!.value).toBe(0n);
    expect(tx!.data.slice(0, 10)).toBe(SELECTOR.proxy);
    const [decoded] = reader.decodeFunctionData('proxy', tx!.data);
    expect((decoded as unknown[][]).map(([typeCode, to, value, data]) => ({ typeCode, to, value, data }))).toEqual([
      { typeCode: 1n, to: PUSD, value: 0n, data: CALLS[0]!.data },
      { typeCode: 1n, to: CTF, value: 0n, data: CALLS[1]!.data },
    ]);
    expect((decoded as unknown[][])[0]![3]).toMatch(new RegExp(`^${SELECTOR.approve}`));
  });

  it('refuses a proxy address that is not the key’s own derivation (the factory would act on another wallet)', async () => {
    const error = await fail(() =>
      accountTransactions({ kind: 'proxy', address: PROXY, owner: OTHER }, CALLS, {
        chainId: 137,
        wallets: POLYGON_WALLETS,
      }),
    );
    expect(error.code).toBe('ERR_INVALID_PARAM');
    const kindMismatch = await fail(() =>
      accountTransactions({ kind: 'proxy', address: SAFE, owner: OWNER }, CALLS, {
        chainId: 137,
        wallets: POLYGON_WALLETS,
      }),
    );
    expect(kindMismatch.detail).toBe(`The account ${SAFE} is the key's Safe, not its proxy wallet; nothing was built.`);
  });

  it('refuses on a chain without a proxy factory', async () => {
    const error = await fail(() =>
      accountTransactions({ kind: 'proxy', address: PROXY, owner: OWNER }, CALLS, {
        chainId: 137,
        wallets: { ...POLYGON_WALLETS, proxyFactory: undefined },
      }),
    );
    expect(error.code).toBe('ERR_INVALID_PARAM');
  });

  it('proxyFactoryData carries a call value through unchanged', () => {
    const data = proxyFactoryData([{ to: PUSD, data: '0x', value: 5n }]);
    const [decoded] = reader.decodeFunctionData('proxy', data);
    expect((decoded as unknown[][])[0]).toEqual([1n, PUSD, 5n, '0x']);
  });
});

describe('accountTransactions: Safe (type 2)', () => {
  it('a single call goes straight (operation 0) in execTransaction, signed by the owner over the SafeTx hash', async () => {
    const plan = await accountTransactions({ kind: 'safe', address: SAFE, owner: OWNER }, [CALLS[0]!], safeOptions());
    const [tx] = plan.transactions;
    expect(tx).toMatchObject({ from: OWNER, to: SAFE, value: 0n });
    expect(tx!.data.slice(0, 10)).toBe(SELECTOR.execTransaction);
    const args = reader.decodeFunctionData('execTransaction', tx!.data);
    expect([args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7], args[8]]).toEqual([
      PUSD,
      0n,
      CALLS[0]!.data,
      0n,
      0n,
      0n,
      0n,
      '0x0000000000000000000000000000000000000000',
      '0x0000000000000000000000000000000000000000',
    ]);
    const hash = safeTxHashByHand(137, SAFE, { to: PUSD, value: 0n, data: CALLS[0]!.data, operation: 0, nonce: 7n });
    expect(plan.safe!.hash).toBe(hash);
    const signature = args[9] as string;
    expect(getBytes(signature)).toHaveLength(65);
    expect([27, 28]).toContain(getBytes(signature)[64]);
    expect(recoverSafeSigner(hash, signature)).toBe(OWNER);
  });

  it('several calls go through MultiSend by DELEGATECALL (operation 1), the batch packed call after call', async () => {
    const plan = await accountTransactions({ kind: 'safe', address: SAFE, owner: OWNER }, CALLS, safeOptions(KEY, 0n));
    const args = reader.decodeFunctionData('execTransaction', plan.transactions[0]!.data);
    expect(args[0]).toBe(SAFE_MULTISEND_130);
    expect(args[3]).toBe(1n);
    expect((args[2] as string).slice(0, 10)).toBe(SELECTOR.multiSend);
    const [packed] = reader.decodeFunctionData('multiSend', args[2] as string);
    expect(unpackMultiSend(packed as string)).toEqual(
      CALLS.map((c) => ({ operation: 0, to: c.to, value: 0n, data: c.data })),
    );
    const hash = safeTxHashByHand(137, SAFE, {
      to: SAFE_MULTISEND_130,
      value: 0n,
      data: args[2] as string,
      operation: 1,
      nonce: 0n,
    });
    expect(recoverSafeSigner(hash, args[9] as string)).toBe(OWNER);
  });

  it('uses the nonce the reader gives (a different nonce is a different hash)', async () => {
    const a = await accountTransactions(
      { kind: 'safe', address: SAFE, owner: OWNER },
      [CALLS[0]!],
      safeOptions(KEY, 1n),
    );
    const b = await accountTransactions(
      { kind: 'safe', address: SAFE, owner: OWNER },
      [CALLS[0]!],
      safeOptions(KEY, 2n),
    );
    expect(a.safe!.tx.nonce).toBe(1n);
    expect(a.safe!.hash).not.toBe(b.safe!.hash);
  });

  it('refuses a signer that is not the owner, a missing signer or nonce reader, and a bad nonce answer', async () => {
    const wrong = await fail(() =>
      accountTransactions({ kind: 'safe', address: SAFE, owner: OWNER }, CALLS, safeOptions(OTHER_KEY)),
    );
    expect(wrong.detail).toMatch(/not the Safe's owner/);
    expect(
      (
        await fail(() =>
          accountTransactions({ kind: 'safe', address: SAFE, owner: OWNER }, CALLS, {
            chainId: 137,
            wallets: POLYGON_WALLETS,
          }),
        )
      ).detail,
    ).toMatch(/no signer/);
    expect(
      (
        await fail(() =>
          accountTransactions({ kind: 'safe', address: SAFE, owner: OWNER }, CALLS, {
            ...safeOptions(),
            safeNonce: undefined,
          }),
        )
      ).detail,
    ).toMatch(/no nonce reader/);
    const badNonce = await fail(() =>
      accountTransactions({ kind: 'safe', address: SAFE, owner: OWNER }, CALLS, {
        ...safeOptions(),
        safeNonce: async () => -1n,
      }),
    );
    expect(badNonce.code).toBe('ERR_VALIDATION');
  });
});

describe('accountTransactions: deposit wallet (type 3)', () => {
  it('is not available without the relayer, said in one sentence, before anything is built', async () => {
    let signed = false;
    const error = await fail(() =>
      accountTransactions({ kind: 'deposit-wallet', address: DEPOSIT, owner: OWNER }, CALLS, {
        ...safeOptions(),
        signer: { signTypedData: async () => ((signed = true), '0x') },
      }),
    );
    expect(error.code).toBe('ERR_NOT_AVAILABLE');
    expect(error.detail).toBe(DEPOSIT_WALLET_RELAYER_ONLY);
    expect(error.detail).toMatch(/relayer/);
    expect(error.detail).toMatch(/trading from the deposit wallet still works/);
    expect(signed).toBe(false);
  });
});

describe('Safe signatures, both ways', () => {
  const tx = safeTxFor(CALLS, 3n, SAFE_MULTISEND_130);
  const typed = safeTxTypedData(137, SAFE, tx);
  const wallet = new Wallet(KEY);

  it('typed data: v stays 27/28 and recovers the owner from the SafeTx hash', async () => {
    const raw = await wallet.signTypedData(typed.domain, typed.types, typed.value);
    const packed = packSafeSignature(raw, 'typed-data');
    expect(packed).toBe(raw.toLowerCase());
    expect(recoverSafeSigner(typed.hash, packed)).toBe(OWNER);
  });

  it('eth_sign: personal_sign of the hash, v raised by 4 to 31/32, recovers the owner through the message prefix', async () => {
    const raw = await wallet.signMessage(getBytes(typed.hash));
    const packed = packSafeSignature(raw, 'eth-sign');
    expect([31, 32]).toContain(getBytes(packed)[64]);
    expect(packed.slice(0, 130)).toBe(raw.slice(0, 130).toLowerCase());
    expect(recoverSafeSigner(typed.hash, packed)).toBe(OWNER);
    // Read as a typed-data signature (v 27/28) the same r‖s belongs to someone else: the two kinds must not be mixed.
    expect(recoverSafeSigner(typed.hash, packSafeSignature(raw, 'typed-data'))).not.toBe(OWNER);
  });

  it('normalises a signer that reports v as 0/1 and refuses what is not a signature', () => {
    const raw = wallet.signingKey.sign(typed.hash);
    const zeroBased = concat([raw.r, raw.s, toBeHex(raw.v - 27, 1)]);
    expect(recoverSafeSigner(typed.hash, packSafeSignature(zeroBased, 'typed-data'))).toBe(OWNER);
    expect(() => packSafeSignature('0x1234', 'typed-data')).toThrow(/65-byte/);
    expect(() => recoverSafeSigner(typed.hash, concat([raw.r, raw.s, '0x05']))).toThrow(/v 27, 28, 31 or 32/);
  });
});

describe('MultiSend packing', () => {
  it('is operation(1) ‖ to(20) ‖ value(32) ‖ length(32) ‖ data per call, with nothing between calls', () => {
    const calls = [
      { to: PUSD, data: '0xdeadbeef', value: 9n },
      { to: CTF, data: '0x' },
    ];
    const bytes = getBytes(packMultiSend(calls));
    expect(bytes).toHaveLength(85 + 4 + 85);
    const hex = (from: number, to: number) => `0x${Buffer.from(bytes.subarray(from, to)).toString('hex')}`;
    expect(bytes[0]).toBe(0);
    expect(hex(1, 21)).toBe(PUSD.toLowerCase());
    expect(hex(21, 53)).toBe(zeroPadValue('0x09', 32));
    expect(hex(53, 85)).toBe(zeroPadValue('0x04', 32));
    expect(hex(85, 89)).toBe('0xdeadbeef');
    expect(bytes[89]).toBe(0);
    expect(hex(90, 110)).toBe(CTF.toLowerCase());
    expect(hex(142, 174)).toBe(zeroPadValue('0x00', 32));
    expect(unpackMultiSend(packMultiSend(calls))).toEqual([
      { operation: 0, to: PUSD, value: 9n, data: '0xdeadbeef' },
      { operation: 0, to: CTF, value: 0n, data: '0x' },
    ]);
    expect(() => unpackMultiSend(hex(0, 60))).toThrow(/middle of a call header/);
  });
});

describe('readSafeNonce', () => {
  it('reads nonce() (0xaffed0e0) on the Safe and refuses an answer that is not one word', async () => {
    const asked: { to: string; data: string }[] = [];
    const nonce = await readSafeNonce({ call: async (tx) => (asked.push(tx), zeroPadValue('0x2a', 32)) }, SAFE);
    expect(nonce).toBe(42n);
    expect(asked).toEqual([{ to: SAFE, data: '0xaffed0e0' }]);
    const error = await fail(() => readSafeNonce({ call: async () => '0x' }, SAFE));
    expect(error.code).toBe('ERR_VALIDATION');
    expect(error.detail).toMatch(/is a Safe deployed there/);
  });
});

describe('gas check', () => {
  const POL = 10n ** 18n;
  it('says what the key has and about what the transaction needs', () => {
    const error = (() => {
      try {
        checkGasFunds(OWNER, POL / 1000n, (POL * 195n) / 10_000n);
      } catch (e) {
        return e as PmDeskError;
      }
      throw new Error('expected a refusal');
    })();
    expect(error.code).toBe('ERR_INVALID_PARAM');
    expect(error.detail).toBe(`The key ${OWNER} has 0.001 POL; this needs about 0.02 POL for gas.`);
    expect(() => checkGasFunds(OWNER, POL, POL)).not.toThrow();
  });

  it('formats POL without overstating a balance or understating a need', () => {
    expect(formatPol(1_234_567_890_123_456_789n)).toBe('1.234567');
    expect(formatPol(0n)).toBe('0');
    expect(formatPolNeeded(1_234_567_890_123_456_789n)).toBe('1.3');
    expect(formatPolNeeded(30_000_000_000_000_000n)).toBe('0.03');
    expect(formatPolNeeded(30_000_000_000_000_001n)).toBe('0.031');
  });

  it('quoteGas adds headroom to the estimate, prices it and refuses before sending when the key is short', async () => {
    const tx = { from: OWNER, to: PUSD, data: '0x', value: 0n };
    const rich: GasReader = {
      estimateGas: async () => 100_000n,
      gasPrice: async () => 30_000_000_000n,
      getBalance: async () => POL,
    };
    expect(await quoteGas(tx, rich)).toEqual({
      gasLimit: 120_000n,
      gasPrice: 30_000_000_000n,
      cost: 3_600_000_000_000_000n,
      balance: POL,
    });
    const poor: GasReader = { ...rich, getBalance: async () => 1_000_000_000_000_000n };
    expect((await fail(() => quoteGas(tx, poor))).detail).toBe(
      `The key ${OWNER} has 0.001 POL; this needs about 0.0036 POL for gas.`,
    );
    const reverting: GasReader = {
      ...rich,
      estimateGas: async () =>
        Promise.reject(Object.assign(new Error('x'), { shortMessage: 'execution reverted: GS026' })),
    };
    const refused = await fail(() => quoteGas(tx, reverting));
    expect(refused.code).toBe('ERR_API_REQUEST');
    expect(refused.detail).toBe(
      'The chain would refuse this transaction, so nothing was sent: execution reverted: GS026',
    );
  });
});

describe('the toolkit entry', () => {
  it('exports the account actions, pUSD, positions and fees', async () => {
    const kit = await import('../../packages/toolkit/src/index');
    const positions = await import('../../packages/toolkit/src/positions/calls');
    const resolution = await import('../../packages/toolkit/src/positions/resolution');
    const fees = await import('../../packages/toolkit/src/orders/fees');
    const pusd = await import('../../packages/toolkit/src/collateral/pusd');
    expect(kit.accountTransactions).toBe(accountTransactions);
    expect(kit.quoteGas).toBe(quoteGas);
    expect(kit.packSafeSignature).toBe(packSafeSignature);
    expect(kit.wrapCalls).toBe(pusd.wrapCalls);
    expect(kit.unwrapCalls).toBe(pusd.unwrapCalls);
    expect(kit.splitCalls).toBe(positions.splitCalls);
    expect(kit.redeemCalls).toBe(positions.redeemCalls);
    expect(kit.resolutionOf).toBe(resolution.resolutionOf);
    expect(kit.redeemPlan).toBe(resolution.redeemPlan);
    expect(kit.fillFee).toBe(fees.fillFee);
    expect(kit.adjustBuyAmountForFees).toBe(fees.adjustBuyAmountForFees);
  });
});

describe('safeTxTypedData', () => {
  it('is plain JSON (numbers as decimal strings) so it can cross to the signer worker, and hashes the same after the trip', () => {
    const typed = safeTxTypedData(137, SAFE, safeTxFor([{ to: PUSD, data: '0x', value: 12n }], 5n, SAFE_MULTISEND_130));
    const trip = JSON.parse(
      JSON.stringify({ domain: typed.domain, types: typed.types, value: typed.value }),
    ) as typeof typed;
    expect(trip.value).toMatchObject({ value: '12', nonce: '5', operation: 0 });
    expect(safeTxHashByHand(137, SAFE, { to: PUSD, value: 12n, data: '0x', operation: 0, nonce: 5n })).toBe(typed.hash);
    expect(new Wallet(KEY).signingKey.sign(typed.hash).serialized).toBe(
      new Wallet(KEY).signingKey.sign(TypedDataEncoder.hash(trip.domain, trip.types, trip.value)).serialized,
    );
  });
});
