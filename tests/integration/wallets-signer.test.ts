// The signer worker for real: a Node worker thread that holds keys, answers only its parent's token, signs
// only exchange orders and ClobAuth, sends approvals to a real local chain (anvil), and never lets a secret
// out. Keystores here use scrypt 2^12 for speed, except where the point is the real cost (2^17).
import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HDNodeWallet, Interface, JsonRpcProvider, MaxUint256, Network, Transaction, verifyTypedData } from 'ethers';
import { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { startSignerThread, startSignerWorker } from '../../src/main/wallets/signer-thread';
import type { SignerClient } from '../../src/main/wallets/signer-client';
import type { SignerReplyMessage } from '../../src/main/wallets/signer-protocol';
import {
  CLOB_AUTH_MESSAGE,
  CLOB_AUTH_TYPES,
  clobAuthDomain,
  createL1Headers,
} from '../../packages/toolkit/src/clob/auth';
import {
  ORDER_TYPES_V1,
  ORDER_TYPES_V2,
  exchangeDomain,
  orderDigest,
  orderTypedMessage,
  type OrderV1Fields,
  type OrderV2Fields,
} from '../../packages/toolkit/src/orders/eip712';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { consoleLogger } from '../../packages/toolkit/src/base/logger';
import { DEV_PRIVATE_KEYS, startChain, type Chain } from '../../sandbox/chain/anvil';

const FAST = { scryptN: 2 ** 12 };
const PASSWORD = 'correct horse battery staple';
/** anvil's public dev phrase: index 0 and 1 are well-known addresses. */
const PHRASE = 'test test test test test test test test test test test junk';
const DEV_0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const DEV_1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const EXCHANGE = '0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E';

let signer: SignerClient;
beforeAll(() => {
  signer = startSignerThread();
});
afterAll(() => signer.close());

async function failure(promise: Promise<unknown>): Promise<PmDeskError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PmDeskError);
    return error as PmDeskError;
  }
  throw new Error('expected a failure');
}

function v1Order(signerAddress: string): OrderV1Fields {
  return {
    salt: '479249096354',
    maker: signerAddress,
    signer: signerAddress,
    taker: '0x0000000000000000000000000000000000000000',
    tokenId: '1234',
    makerAmount: '50000000',
    takerAmount: '100000000',
    expiration: '0',
    nonce: '0',
    feeRateBps: '0',
    side: 'BUY',
    signatureType: 0,
  };
}
function v2Order(signerAddress: string): OrderV2Fields {
  return {
    salt: '479249096354',
    maker: signerAddress,
    signer: signerAddress,
    tokenId: '1234',
    makerAmount: '50000000',
    takerAmount: '100000000',
    side: 'SELL',
    signatureType: 0,
    timestamp: '1760000000000',
    expiration: '0',
    metadata: `0x${'00'.repeat(32)}`,
    builder: `0x${'00'.repeat(32)}`,
  };
}
const orderTypedData = (version: 1 | 2, order: OrderV1Fields | OrderV2Fields) => ({
  domain: exchangeDomain(version, 137, EXCHANGE),
  types: version === 1 ? ORDER_TYPES_V1 : ORDER_TYPES_V2,
  message: orderTypedMessage(version, order),
});

describe('keystores made and opened in the worker', () => {
  it("creates a wallet whose mnemonic derives its address at m/44'/60'/0'/0/0, and whose keystore holds no mnemonic", async () => {
    const created = await signer.createWallet(PASSWORD, FAST);
    expect(created.mnemonic.split(' ')).toHaveLength(12);
    expect(HDNodeWallet.fromPhrase(created.mnemonic, undefined, "m/44'/60'/0'/0/0").address).toBe(created.address);
    expect(JSON.parse(created.keystore)['x-ethers']).toBeUndefined();
    expect(JSON.parse(created.keystore).Crypto.kdfparams.n).toBe(2 ** 12);
    expect((await signer.checkPassword(created.keystore, PASSWORD)).address).toBe(created.address);
  });

  it('imports a mnemonic at index 0 by default and at any index asked', async () => {
    expect((await signer.importMnemonic(PHRASE, PASSWORD, FAST)).address).toBe(DEV_0);
    expect((await signer.importMnemonic(`  ${PHRASE.toUpperCase()}  `, PASSWORD, { ...FAST, index: 1 })).address).toBe(
      DEV_1,
    );
    expect((await failure(signer.importMnemonic('test test test', PASSWORD, FAST))).detail).toBe(
      'The recovery phrase is not a valid BIP-39 mnemonic.',
    );
    expect((await failure(signer.importMnemonic(PHRASE, PASSWORD, { ...FAST, index: -1 }))).code).toBe(
      'ERR_INVALID_PARAM',
    );
  });

  it('imports a private key, with or without 0x, and checks it against an expected address', async () => {
    expect((await signer.importPrivateKey(DEV_PRIVATE_KEYS[0].slice(2), PASSWORD, FAST)).address).toBe(DEV_0);
    const mismatch = await failure(
      signer.importPrivateKey(DEV_PRIVATE_KEYS[0], PASSWORD, { ...FAST, expectedAddress: DEV_1 }),
    );
    expect(mismatch.detail).toBe('privateKey/address mismatch');
    expect((await failure(signer.importPrivateKey('0x1234', PASSWORD, FAST))).code).toBe('ERR_INVALID_PARAM');
    expect((await failure(signer.importPrivateKey(DEV_PRIVATE_KEYS[0], 'short', FAST))).detail).toBe(
      'A wallet password is at least 8 characters.',
    );
  });

  it('says "invalid password", "address mismatch" and "invalid JSON wallet" exactly as documented', async () => {
    const { keystore } = await signer.importPrivateKey(DEV_PRIVATE_KEYS[0], PASSWORD, FAST);
    const wrong = await failure(signer.checkPassword(keystore, 'not the password'));
    expect([wrong.code, wrong.detail]).toEqual(['ERR_UNAUTHORIZED', 'invalid password']);
    const tampered = JSON.stringify({ ...JSON.parse(keystore), address: DEV_1.slice(2).toLowerCase() });
    const mismatch = await failure(signer.unlock(tampered, PASSWORD));
    expect([mismatch.code, mismatch.detail]).toEqual(['ERR_VALIDATION', 'address mismatch']);
    const garbage = await failure(signer.checkPassword('{"version":3}', PASSWORD));
    expect([garbage.code, garbage.detail]).toEqual(['ERR_INVALID_PARAM', 'invalid JSON wallet']);
  });
});

describe('signing intents', () => {
  let keystore: string;
  let address: string;
  beforeAll(async () => {
    ({ keystore, address } = await signer.importPrivateKey(DEV_PRIVATE_KEYS[2], PASSWORD, FAST));
    await signer.unlock(keystore, PASSWORD);
  });

  it('signs version 1 and version 2 orders exactly as the toolkit signs them with the key in hand', async () => {
    const local = privateKeySigner(DEV_PRIVATE_KEYS[2]);
    for (const [version, order] of [
      [1, v1Order(address)],
      [2, v2Order(address)],
    ] as const) {
      const typed = orderTypedData(version, order);
      const signature = await signer.signOrder(address, typed);
      expect(verifyTypedData(typed.domain, typed.types, typed.message, signature)).toBe(address);
      expect(signature).toBe(local.signDigest!(orderDigest(version, 137, EXCHANGE, order)));
    }
  });

  it("signs ClobAuth through the toolkit's own L1 headers, via the ClobSigner adapter", async () => {
    const headers = await createL1Headers(signer.clobSigner(address), 80002, 0, 1760000000);
    const value = { address, timestamp: '1760000000', nonce: 0, message: CLOB_AUTH_MESSAGE };
    expect(verifyTypedData(clobAuthDomain(80002), CLOB_AUTH_TYPES, value, headers.POLY_SIGNATURE)).toBe(address);
  });

  it('refuses anything that is not an exchange order or a ClobAuth attestation', async () => {
    const order = orderTypedData(1, v1Order(address));
    const permit = {
      domain: { name: 'USD Coin', version: '2', chainId: 137, verifyingContract: EXCHANGE },
      types: {
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
        ],
      },
      message: { owner: address, spender: EXCHANGE, value: MaxUint256 },
    };
    const refusals = [
      signer.signOrder(address, permit),
      signer.signOrder(address, { ...permit, domain: order.domain }),
      signer.signOrder(address, { ...order, domain: { ...order.domain, name: 'Other Exchange' } }),
      signer.signOrder(address, { ...order, types: { ...order.types, Extra: [{ name: 'x', type: 'uint256' }] } }),
      signer.signOrder(address, { ...order, types: { Order: order.types.Order!.slice(0, -1) } }),
      signer.signOrder(address, { ...order, domain: { ...order.domain, version: '2' } }),
      signer.signClobAuth(address, order),
      signer.signClobAuth(address, {
        domain: clobAuthDomain(137),
        types: CLOB_AUTH_TYPES,
        message: { address, timestamp: '1', nonce: 0, message: 'I agree to pay' },
      }),
    ];
    for (const refusal of refusals) expect((await failure(refusal)).code).toBe('ERR_INVALID_PARAM');
    const foreign = orderTypedData(1, v1Order(DEV_0));
    expect((await failure(signer.signOrder(address, foreign))).detail).toBe('signer does not match');
    const foreignAuth = {
      domain: clobAuthDomain(137),
      types: CLOB_AUTH_TYPES,
      message: { address: DEV_0, timestamp: '1', nonce: 0, message: CLOB_AUTH_MESSAGE },
    };
    expect((await failure(signer.signClobAuth(address, foreignAuth))).detail).toBe('signer does not match');
  });

  it('lock drops the key: signing needs the password again', async () => {
    const typed = orderTypedData(2, v2Order(address));
    expect(await signer.lock(address)).toEqual([address]);
    expect(await signer.unlocked()).not.toContain(address);
    expect((await failure(signer.signOrder(address, typed))).code).toBe('ERR_UNAUTHORIZED');
    await signer.unlock(keystore, PASSWORD);
    expect(verifyTypedData(typed.domain, typed.types, typed.message, await signer.signOrder(address, typed))).toBe(
      address,
    );
  });

  it('refuses an idle time a timer cannot hold, before spending any scrypt', async () => {
    for (const autoLockMs of [-1, 1.5, 2 ** 31, Number.NaN]) {
      expect((await failure(signer.unlock(keystore, 'not even checked', { autoLockMs }))).code).toBe(
        'ERR_INVALID_PARAM',
      );
    }
  });

  it('locks itself after the idle time the caller set, and says so', async () => {
    const locked = new Promise<string>((resolve) => signer.onLocked((who) => resolve(who)));
    await signer.unlock(keystore, PASSWORD, { autoLockMs: 30 });
    expect(signer.holds(address)).toBe(true);
    expect(await locked).toBe(address);
    // The client's own record follows the worker's idle lock without asking it (ready orders rely on it).
    expect(signer.holds(address)).toBe(false);
    expect(await signer.unlocked()).not.toContain(address);
    expect((await failure(signer.signOrder(address, orderTypedData(1, v1Order(address))))).detail).toBe(
      'The wallet is locked: unlock it with its password first.',
    );
  });
});

it("knows which keys its worker holds without asking: unlock, lock, lock all, the worker's exit", async () => {
  const own = startSignerThread();
  try {
    const { address: a, keystore: ka } = await own.importPrivateKey(DEV_PRIVATE_KEYS[5], PASSWORD, {
      scryptN: 2 ** 10,
    });
    expect(own.holds(a)).toBe(false);
    await own.unlock(ka, PASSWORD);
    expect(own.holds(a.toLowerCase())).toBe(true);
    await own.lock(a);
    expect(own.holds(a)).toBe(false);
    await own.unlock(ka, PASSWORD);
    await own.lock();
    expect(own.holds(a)).toBe(false);
    await own.unlock(ka, PASSWORD);
    await own.close();
    expect(own.holds(a)).toBe(false);
  } finally {
    await own.close().catch(() => undefined);
  }
});

describe('the worker answers only its parent', () => {
  it('refuses a request whose token is wrong, even by one byte, and serves the right one', async () => {
    const token = randomBytes(32).toString('hex');
    const transport = startSignerWorker(token);
    const replies: SignerReplyMessage[] = [];
    const next = () =>
      new Promise<SignerReplyMessage>((resolve) => transport.onMessage((m) => resolve(m as SignerReplyMessage)));
    try {
      const almost = token.slice(0, -2) + (token.endsWith('00') ? '01' : '00');
      for (const [id, bad] of [
        [1, almost],
        [2, ''],
        [3, token.slice(0, 32)],
        [4, 'zz'],
      ] as const) {
        const reply = next();
        transport.send({ id, token: bad, op: 'unlocked', params: {} });
        replies.push(await reply);
      }
      expect(replies.map((r) => ('ok' in r ? [r.id, r.ok, r.ok ? null : r.error.code] : null))).toEqual([
        [1, false, 'ERR_FORBIDDEN'],
        [2, false, 'ERR_FORBIDDEN'],
        [3, false, 'ERR_FORBIDDEN'],
        [4, false, 'ERR_FORBIDDEN'],
      ]);
      const good = next();
      transport.send({ id: 5, token, op: 'unlocked', params: {} });
      expect(await good).toEqual({ id: 5, ok: true, result: { addresses: [] } });
    } finally {
      await transport.close();
    }
  });
});

describe('the main event loop never waits for scrypt', () => {
  /** Counts timer callbacks while `work` runs: a blocked loop runs none. */
  async function ticksDuring(work: () => unknown): Promise<number> {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      await work();
    } finally {
      clearInterval(timer);
    }
    return ticks;
  }

  it('keeps firing a timer while a 2^17-scrypt keystore is made and unlocked (and would not, had scrypt run here)', async () => {
    let made = { keystore: '', address: '' };
    expect(
      await ticksDuring(async () => (made = await signer.importPrivateKey(DEV_PRIVATE_KEYS[3], PASSWORD))),
    ).toBeGreaterThan(0);
    expect(JSON.parse(made.keystore).Crypto.kdfparams.n).toBe(2 ** 17);
    expect(await ticksDuring(() => signer.unlock(made.keystore, PASSWORD))).toBeGreaterThan(0);
    // The control: the same measure around scrypt on this thread sees no tick at all.
    expect(await ticksDuring(() => scryptSync(PASSWORD, 'salt', 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 2 ** 26 }))).toBe(
      0,
    );
    await signer.lock(made.address);
  });
});

describe('sending approvals to a real chain', () => {
  let chain: Chain;
  beforeAll(async () => {
    chain = await startChain();
  });
  afterAll(() => chain?.stop());

  it('sends an unlimited ERC-20 approve and an ERC-1155 setApprovalForAll as legacy transactions with the gas asked for', async () => {
    const { keystore, address } = await signer.importPrivateKey(DEV_PRIVATE_KEYS[4], PASSWORD, FAST);
    await signer.unlock(keystore, PASSWORD);
    const collateral = '0x' + 'c0'.repeat(20);
    const outcomeTokens = '0x' + 'c7'.repeat(20);
    const spender = '0x' + '5e'.repeat(20);
    const common = { rpcUrl: chain.rpcUrl, chainId: chain.chainId, gasPrice: '100000000000', gasLimit: '200000' };
    const first = await signer.sendApproval(address, { kind: 'collateral', token: collateral, spender, ...common });
    const second = await signer.sendApproval(address, {
      kind: 'outcome-tokens',
      token: outcomeTokens,
      spender,
      ...common,
    });
    expect([first.nonce, second.nonce]).toEqual([0, 1]);

    const provider = new JsonRpcProvider(chain.rpcUrl, Network.from(chain.chainId), {
      staticNetwork: true,
      batchMaxCount: 1,
    });
    try {
      for (const hash of [first.txHash, second.txHash])
        expect((await provider.waitForTransaction(hash))!.status).toBe(1);
      const erc20 = new Interface(['function approve(address,uint256)']);
      const erc1155 = new Interface(['function setApprovalForAll(address,bool)']);
      const tx1 = Transaction.from((await provider.send('eth_getRawTransactionByHash', [first.txHash])) as string);
      const tx2 = Transaction.from((await provider.send('eth_getRawTransactionByHash', [second.txHash])) as string);
      expect([tx1.type, tx1.from, tx1.to?.toLowerCase(), tx1.gasPrice, tx1.gasLimit]).toEqual([
        0,
        address,
        collateral,
        100000000000n,
        200000n,
      ]);
      expect(erc20.decodeFunctionData('approve', tx1.data).toArray()).toEqual([
        expect.stringMatching(/^0x5e5e/i),
        MaxUint256,
      ]);
      expect([tx2.from, tx2.to?.toLowerCase()]).toEqual([address, outcomeTokens]);
      expect(erc1155.decodeFunctionData('setApprovalForAll', tx2.data).toArray()).toEqual([
        expect.stringMatching(/^0x5e5e/i),
        true,
      ]);
    } finally {
      provider.destroy();
    }
  });

  it('says plainly when the chain cannot be reached, and refuses a locked wallet', async () => {
    const { keystore, address } = await signer.importPrivateKey(DEV_PRIVATE_KEYS[5], PASSWORD, FAST);
    const approval = {
      kind: 'collateral' as const,
      token: DEV_0,
      spender: DEV_1,
      rpcUrl: 'http://127.0.0.1:9',
      chainId: 31338,
      gasPrice: '1',
      gasLimit: '200000',
    };
    expect((await failure(signer.sendApproval(address, approval))).code).toBe('ERR_UNAUTHORIZED');
    await signer.unlock(keystore, PASSWORD);
    const unreachable = await failure(signer.sendApproval(address, approval));
    expect([unreachable.code, unreachable.detail]).toEqual([
      'ERR_NETWORK',
      "The approval was not sent: the chain's RPC node did not answer (ECONNREFUSED).",
    ]);
    await signer.lock();
  });
});

describe('no secret leaves the worker', () => {
  it('keeps passwords, phrases and keys out of every error and log line, whatever goes wrong', async () => {
    const key = DEV_PRIVATE_KEYS[1];
    const { keystore, address } = await signer.importPrivateKey(key, PASSWORD, FAST);
    await signer.unlock(keystore, PASSWORD);
    const errors = await Promise.all([
      failure(signer.checkPassword(keystore, `${PASSWORD}!`)),
      failure(signer.importPrivateKey(`${key}ff`, PASSWORD, FAST)),
      failure(signer.importPrivateKey(key.slice(0, -1), PASSWORD, FAST)),
      failure(signer.importPrivateKey(key, PASSWORD, { ...FAST, expectedAddress: DEV_0 })),
      failure(signer.importMnemonic(PHRASE.replace('junk', 'junky'), PASSWORD, FAST)),
      failure(signer.importMnemonic(PHRASE, PASSWORD.slice(0, 5), FAST)),
      failure(signer.unlock(keystore.replace(/"mac":"[0-9a-f]+"/, '"mac":"zz"'), PASSWORD)),
      failure(signer.signOrder(address, { domain: {}, types: {}, message: { key, PASSWORD } })),
      failure(
        signer.sendApproval(address, {
          kind: 'collateral',
          token: key,
          spender: PASSWORD,
          rpcUrl: '',
          chainId: 1,
          gasPrice: '1',
          gasLimit: '1',
        }),
      ),
    ]);
    // What the toolkit's console logger would print for each of them, captured from console.error itself.
    const logged: string[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => void logged.push(args.map(String).join(' '));
    try {
      for (const error of errors) consoleLogger.error('signer request failed', error);
    } finally {
      console.error = consoleError;
    }
    expect(logged).toHaveLength(errors.length);
    const text = [...errors.map((e) => `${e.message}\n${JSON.stringify(e)}\n${e.stack}`), ...logged]
      .join('\n')
      .toLowerCase();
    for (const secret of [PASSWORD, key.slice(2), key.slice(2, 20), 'junky', PHRASE])
      expect(text).not.toContain(secret.toLowerCase());
    await signer.lock();
  });
});
