// Every Polymarket account kind on the sandbox chain: proxy wallets (type 1), Safes (type 2) and deposit
// wallets (type 3) sit where docs/protocol.md#address-derivation's formulas (recomputed here with ethers, never asked of a
// factory) put them; proxy() batches, Safe execTransaction (both v forms) and deposit-wallet ERC-1271 behave as
// Polymarket's; and an order from each kind settles from the account's funds on the exchange contract and
// through the sandbox CLOB, with Polymarket's official client building the type-3 order. The chain sits at
// Amoy's addresses so that client signs for the sandbox unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AbiCoder,
  Contract,
  TypedDataEncoder,
  Wallet,
  ZeroAddress,
  ZeroHash,
  concat,
  getBytes,
  getCreate2Address,
  keccak256,
  parseUnits,
  solidityPacked,
  toBeHex,
  toUtf8Bytes,
  zeroPadValue,
  type TypedDataDomain,
} from 'ethers';
import {
  ClobClient as ClobClientV2,
  Side as SideV2,
  createL1Headers,
  createL2Headers,
} from '@polymarket/clob-client-v2';
import { compileContracts } from '../../sandbox/chain/compile';
import { TX_OVERRIDES, mined, type TestAccount } from '../../sandbox/chain/deploy';
import { ORDER_TYPES, exchangeDomain, signedMessage, type ExchangeOrder } from '../../sandbox/chain/order-typed-data';
import { l2Request, officialSigner, startClobSandbox, type ClobSandbox, type Creds } from '../helpers/sandbox-clob';

const usdc = (amount: number): bigint => parseUnits(amount.toFixed(6), 6);
const abi = AbiCoder.defaultAbiCoder();
const compiled = compileContracts();
const ERC1271_MAGIC = '0x1626ba7e';

// ---------------------------------------------------------------- the documented formulas (docs/protocol.md#address-derivation)

function proxyWalletOf(factory: string, implementation: string, owner: string): string {
  const initCode = concat([
    '0x3d3d606380380380913d393d73',
    factory,
    '0x5af4602a57600080fd5b602d8060366000396000f3363d3d373d3d3d363d73',
    implementation,
    '0x5af43d82803e903d91602b57fd5bf3',
    // cloneConstructor(bytes) with empty bytes: selector, offset 0x20, length 0.
    '0x52e831dd',
    toBeHex(0x20, 32),
    toBeHex(0, 32),
  ]);
  return getCreate2Address(factory, keccak256(solidityPacked(['address'], [owner])), keccak256(initCode));
}

function safeOf(factory: string, proxyCreationCode: string, masterCopy: string, owner: string): string {
  const initCodeHash = keccak256(concat([proxyCreationCode, abi.encode(['address'], [masterCopy])]));
  return getCreate2Address(factory, keccak256(abi.encode(['address'], [owner])), initCodeHash);
}

function depositWalletOf(factory: string, beacon: string, owner: string): string {
  const args = abi.encode(['address', 'bytes32'], [factory, zeroPadValue(owner, 32)]);
  const initCode = concat([
    toBeHex(0x6100523d8160233d3973n + (64n << 56n), 10),
    beacon,
    '0x60195155f3363d3d373d3d363d602036600436635c60da',
    '0x1b60e01b36527fa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6c',
    '0xb3582b35133d50545afa5036515af43d6000803e604d573d6000fd5b3d6000f3',
    args,
  ]);
  return getCreate2Address(factory, keccak256(args), keccak256(initCode));
}

// ---------------------------------------------------------------- signing as each account kind

const ORDER_TYPE_STRING =
  'Order(uint256 salt,address maker,address signer,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,uint8 side,uint8 signatureType,uint256 timestamp,bytes32 metadata,bytes32 builder)';

/** ERC-7739 as docs/protocol.md#order-signing gives it: ownerSig ‖ appDomainSeparator ‖ hashStruct(Order) ‖ type ‖ uint16 length. */
async function depositWalletSignature(owner: Wallet, domain: TypedDataDomain, order: ExchangeOrder): Promise<string> {
  const message = signedMessage(2, order);
  const inner = await owner.signTypedData(
    domain,
    {
      TypedDataSign: [
        { name: 'contents', type: 'Order' },
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
        { name: 'salt', type: 'bytes32' },
      ],
      Order: ORDER_TYPES[2].Order,
    },
    {
      contents: message,
      name: 'DepositWallet',
      version: '1',
      chainId: domain.chainId,
      verifyingContract: order.signer,
      salt: ZeroHash,
    },
  );
  const contents = TypedDataEncoder.hashStruct('Order', ORDER_TYPES[2], message);
  return concat([
    inner,
    TypedDataEncoder.hashDomain(domain),
    contents,
    toUtf8Bytes(ORDER_TYPE_STRING),
    toBeHex(ORDER_TYPE_STRING.length, 2),
  ]);
}

let saltCounter = 1n;

let sb: ClobSandbox;
let operator: Wallet;
let alice: Wallet;
let exchange: Contract;
let collateral: Contract;
let yes: string;
let no: string;
let accounts: Record<TestAccount['kind'], TestAccount>;

/** The test wallet whose key owns an address. */
const keyOf = (address: string): Wallet => sb.wallets.find((w) => w.address === address)!;

/** A version-2 BUY of `tokenId` at `price` for `size` shares, made by `maker` and signed as its kind requires. */
async function buyOrder(
  signerKey: Wallet,
  maker: string,
  signatureType: number,
  tokenId: string,
  price: number,
  size: number,
): Promise<ExchangeOrder> {
  const signer = signatureType === 3 ? maker : signerKey.address;
  const order: ExchangeOrder = {
    salt: BigInt(Date.now()) * 1000n + saltCounter++,
    maker,
    signer,
    taker: ZeroAddress,
    tokenId: BigInt(tokenId),
    makerAmount: usdc(price * size),
    takerAmount: usdc(size),
    expiration: 0n,
    nonce: 0n,
    feeRateBps: 0n,
    side: 0,
    signatureType,
    timestamp: BigInt(Date.now()),
    metadata: ZeroHash,
    builder: ZeroHash,
    signature: '0x',
  };
  const domain = exchangeDomain(2, sb.chain.chainId, sb.chain.contracts.exchange);
  order.signature =
    signatureType === 3
      ? await depositWalletSignature(signerKey, domain, order)
      : await signerKey.signTypedData(domain, ORDER_TYPES[2], signedMessage(2, order));
  return order;
}

function orderHash(order: ExchangeOrder): string {
  return TypedDataEncoder.hash(
    exchangeDomain(2, sb.chain.chainId, sb.chain.contracts.exchange),
    ORDER_TYPES[2],
    signedMessage(2, order),
  );
}

/** POST /order's JSON for a version-2 order. */
function orderJson(order: ExchangeOrder): Record<string, unknown> {
  return {
    salt: Number(order.salt),
    maker: order.maker,
    signer: order.signer,
    tokenId: order.tokenId.toString(),
    makerAmount: order.makerAmount.toString(),
    takerAmount: order.takerAmount.toString(),
    side: order.side === 0 ? 'BUY' : 'SELL',
    signatureType: order.signatureType,
    timestamp: order.timestamp.toString(),
    expiration: '0',
    metadata: order.metadata,
    builder: order.builder,
    signature: order.signature,
  };
}

function credsOf(wallet: Wallet): Creds {
  const c = sb.server.apiKeyFor(wallet.address);
  return { key: c.apiKey, secret: c.secret, passphrase: c.passphrase };
}

async function post(wallet: Wallet, order: ExchangeOrder) {
  const creds = credsOf(wallet);
  const body = JSON.stringify({
    deferExec: false,
    postOnly: false,
    order: orderJson(order),
    owner: creds.key,
    orderType: 'GTC',
  });
  return l2Request(sb.server.url, wallet, creds, 'POST', '/order', body);
}

/** The custom error (or require message) a call reverts with. */
async function revertOf(promise: Promise<unknown>, iface: Contract['interface'] = exchange.interface): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const data = (error as { data?: string }).data;
    if (data && data !== '0x') {
      const parsed = iface.parseError(data) ?? collateral.interface.parseError(data);
      if (parsed) return parsed.name === 'Error' ? String(parsed.args[0]) : parsed.name;
    }
    const reason = (error as { reason?: string }).reason;
    if (reason) return reason;
    throw error;
  }
  return 'no revert';
}

beforeAll(async () => {
  sb = await startClobSandbox({ orderVersion: 2, amoy: true });
  operator = new Wallet(sb.chain.operator.privateKey, sb.provider);
  alice = sb.wallets[0]!;
  exchange = new Contract(sb.chain.contracts.exchange, compiled.CTFExchange.abi, operator);
  collateral = new Contract(sb.chain.contracts.collateral, compiled.Collateral.abi, operator);
  [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
  accounts = Object.fromEntries(sb.chain.testAccounts.map((a) => [a.kind, a])) as typeof accounts;
});
afterAll(async () => sb?.stop());

describe('addresses from the formulas', () => {
  it('reproduce the published Polygon vectors (proxy init-code hash, proxy and beacon-era deposit wallet)', () => {
    const [factory, implementation] = [
      '0xaB45c5A4B0c941a2F231C04C3f49182e1A254052',
      '0x44e999d5c2F66Ef0861317f9A4805AC2e90aEB4f',
    ];
    expect(proxyWalletOf(factory, implementation, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe(
      '0x365f0CA36Ae1f641E02fE3B7743673da42A13A70',
    );
    expect(proxyWalletOf(factory, implementation, '0x339a9731D4c1ea6861db006ad592b83E49C9398e')).toBe(
      '0xBa734A6A711c9f13B8f7366572a4F9817a0dAC46',
    );
    const [depositFactory, beacon] = [
      '0x00000000000Fb5C9ADea0298D729A0CB3823Cc07',
      '0x7A18EDfe055488A3128f01F563e5B479D92ffc3a',
    ];
    expect(depositWalletOf(depositFactory, beacon, '0xA60601A4d903af91855C52BFB3814f6bA342f201')).toBe(
      '0xC91A0e6CF447a271c942d0b02ce3fCc12195fe7f',
    );
    expect(depositWalletOf(depositFactory, beacon, '0x0000000000000000000000000000000000000001')).toBe(
      '0x94bF330955A0b957662fEaF878dE77bf25f76cD9',
    );
  });

  it('put every deployed account where the formulas say, with code, and the contracts agree', async () => {
    const { wallets } = sb.chain;
    expect(sb.chain.testAccounts.map((a) => [a.kind, a.owner, a.signatureType])).toEqual([
      ['proxy', sb.wallets[1]!.address, 1],
      ['safe', sb.wallets[2]!.address, 2],
      ['deposit', sb.wallets[3]!.address, 3],
    ]);
    expect(accounts.proxy.address).toBe(
      proxyWalletOf(wallets.proxyFactory, wallets.proxyImplementation, accounts.proxy.owner),
    );
    expect(accounts.safe.address).toBe(
      safeOf(wallets.safeFactory, compiled.SafeProxy.bytecode, wallets.safeMasterCopy, accounts.safe.owner),
    );
    expect(wallets.safeInitCodeHash).toBe(
      keccak256(concat([compiled.SafeProxy.bytecode, abi.encode(['address'], [wallets.safeMasterCopy])])),
    );
    expect(accounts.deposit.address).toBe(
      depositWalletOf(wallets.depositWalletFactory, wallets.depositWalletBeacon, accounts.deposit.owner),
    );
    for (const account of sb.chain.testAccounts) {
      expect(await sb.provider.getCode(account.address)).not.toBe('0x');
      expect(await sb.collateralOf(account.address)).toBe(usdc(100_000));
      expect(await collateral.getFunction('allowance')(account.address, sb.chain.contracts.exchange)).toBe(
        2n ** 256n - 1n,
      );
    }
    expect(await exchange.getFunction('getPolyProxyWalletAddress')(accounts.proxy.owner)).toBe(accounts.proxy.address);
    expect(await exchange.getFunction('getSafeAddress')(accounts.safe.owner)).toBe(accounts.safe.address);
    const safeFactory = new Contract(wallets.safeFactory, compiled.SafeProxyFactory.abi, sb.provider);
    expect(await safeFactory.getFunction('computeProxyAddress')(accounts.safe.owner)).toBe(accounts.safe.address);
    // BEACON() (0x49493a4d) answers a non-zero word: clients pick the beacon-era formula from it.
    const beaconWord = await sb.provider.call({ to: wallets.depositWalletFactory, data: '0x49493a4d' });
    expect(beaconWord).toBe(zeroPadValue(wallets.depositWalletBeacon, 32).toLowerCase());
    const safe = new Contract(accounts.safe.address, compiled.Safe.abi, sb.provider);
    expect(await safe.getFunction('getOwners')()).toEqual([accounts.safe.owner]);
    const deposit = new Contract(accounts.deposit.address, compiled.DepositWallet.abi, sb.provider);
    expect(await deposit.getFunction('owner')()).toBe(accounts.deposit.owner);
  });
});

describe('proxy wallets: proxy(calls) from the owner', () => {
  it('deploys the wallet on first use and runs the batch as the wallet; a failing call reverts the whole batch', async () => {
    const owner = sb.wallets[4]!;
    const { proxyFactory, proxyImplementation } = sb.chain.wallets;
    const wallet = proxyWalletOf(proxyFactory, proxyImplementation, owner.address);
    expect(await sb.provider.getCode(wallet)).toBe('0x');
    await mined(collateral.getFunction('mint')(wallet, usdc(50), TX_OVERRIDES));
    const factory = new Contract(proxyFactory, compiled.ProxyWalletFactory.abi, owner);
    const call = (method: string, args: unknown[]) => ({
      typeCode: 1,
      to: sb.chain.contracts.collateral,
      value: 0n,
      data: collateral.interface.encodeFunctionData(method, args),
    });

    await mined(
      factory.getFunction('proxy')(
        [call('approve', [alice.address, usdc(7)]), call('transfer', [alice.address, usdc(5)])],
        TX_OVERRIDES,
      ),
    );
    expect(await sb.provider.getCode(wallet)).not.toBe('0x');
    expect(await collateral.getFunction('allowance')(wallet, alice.address)).toBe(usdc(7));
    expect(await sb.collateralOf(wallet)).toBe(usdc(45));

    // The second call fails with the token's own error; the first one's approval is undone with it.
    const failing = [call('approve', [alice.address, usdc(1)]), call('transfer', [alice.address, usdc(46)])];
    expect(await revertOf(factory.getFunction('proxy').staticCall(failing), collateral.interface)).toBe(
      'InsufficientBalance',
    );
    // typeCode 0 (INVALID) is refused: clients must send 1 for a call.
    const direct = new Contract(wallet, compiled.ProxyWallet.abi, owner);
    expect(
      await revertOf(
        factory.getFunction('proxy').staticCall([{ ...call('approve', [alice.address, 1n]), typeCode: 0 }]),
        direct.interface,
      ),
    ).toBe('InvalidCallType');
    expect(await collateral.getFunction('allowance')(wallet, alice.address)).toBe(usdc(7));
    // Only the factory may drive the wallet.
    expect(
      await revertOf(direct.getFunction('proxy').staticCall([call('transfer', [owner.address, 1n])]), direct.interface),
    ).toBe('must be called be owner');
  });
});

describe('Safes: execTransaction signed by the owner', () => {
  const SAFE_TX = {
    SafeTx: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'data', type: 'bytes' },
      { name: 'operation', type: 'uint8' },
      { name: 'safeTxGas', type: 'uint256' },
      { name: 'baseGas', type: 'uint256' },
      { name: 'gasPrice', type: 'uint256' },
      { name: 'gasToken', type: 'address' },
      { name: 'refundReceiver', type: 'address' },
      { name: 'nonce', type: 'uint256' },
    ],
  };

  it('takes the typed-data signature (v 27/28) and the eth_sign one (v 31/32), each nonce once; refuses another key', async () => {
    const owner = keyOf(accounts.safe.owner);
    const safe = new Contract(accounts.safe.address, compiled.Safe.abi, operator);
    const approve = (amount: bigint) => collateral.interface.encodeFunctionData('approve', [alice.address, amount]);
    const tx = (data: string, nonce: bigint) => ({
      to: sb.chain.contracts.collateral,
      value: 0n,
      data,
      operation: 0,
      safeTxGas: 0n,
      baseGas: 0n,
      gasPrice: 0n,
      gasToken: ZeroAddress,
      refundReceiver: ZeroAddress,
      nonce,
    });
    const exec = (data: string, signature: string) =>
      safe.getFunction('execTransaction')(
        sb.chain.contracts.collateral,
        0n,
        data,
        0,
        0n,
        0n,
        0n,
        ZeroAddress,
        ZeroAddress,
        signature,
        TX_OVERRIDES,
      );
    const domain = { chainId: sb.chain.chainId, verifyingContract: accounts.safe.address };

    const nonce = (await safe.getFunction('nonce')()) as bigint;
    const typed = await owner.signTypedData(domain, SAFE_TX, tx(approve(11n), nonce));
    await mined(exec(approve(11n), typed));
    expect(await collateral.getFunction('allowance')(accounts.safe.address, alice.address)).toBe(11n);
    expect(await safe.getFunction('nonce')()).toBe(nonce + 1n);
    // The same signature again is for a used nonce: the hash differs and the signer no longer recovers.
    expect(
      await revertOf(
        safe
          .getFunction('execTransaction')
          .staticCall(sb.chain.contracts.collateral, 0n, approve(11n), 0, 0n, 0n, 0n, ZeroAddress, ZeroAddress, typed),
        safe.interface,
      ),
    ).toBe('GS026');

    // eth_sign: personal_sign over the SafeTx hash, v raised by 4.
    const hash = TypedDataEncoder.hash(domain, SAFE_TX, tx(approve(22n), nonce + 1n));
    expect(
      await safe.getFunction('getTransactionHash')(
        sb.chain.contracts.collateral,
        0n,
        approve(22n),
        0,
        0n,
        0n,
        0n,
        ZeroAddress,
        ZeroAddress,
        nonce + 1n,
      ),
    ).toBe(hash);
    const personal = getBytes(await owner.signMessage(getBytes(hash)));
    personal[64] = personal[64]! + 4;
    await mined(exec(approve(22n), concat([personal])));
    expect(await collateral.getFunction('allowance')(accounts.safe.address, alice.address)).toBe(22n);

    // Another key, either form, is refused; so is the owner's eth_sign signature left at v 27/28.
    const forged = await alice.signTypedData(domain, SAFE_TX, tx(approve(33n), nonce + 2n));
    const call = (signature: string) =>
      safe
        .getFunction('execTransaction')
        .staticCall(
          sb.chain.contracts.collateral,
          0n,
          approve(33n),
          0,
          0n,
          0n,
          0n,
          ZeroAddress,
          ZeroAddress,
          signature,
        );
    expect(await revertOf(call(forged), safe.interface)).toBe('GS026');
    const unraised = await owner.signMessage(
      getBytes(TypedDataEncoder.hash(domain, SAFE_TX, tx(approve(33n), nonce + 2n))),
    );
    expect(await revertOf(call(unraised), safe.interface)).toBe('GS026');
    expect(await collateral.getFunction('allowance')(accounts.safe.address, alice.address)).toBe(22n);
  });

  it("createProxy deploys the CreateProxy signer's Safe at computeProxyAddress, once", async () => {
    const owner = sb.wallets[4]!;
    const { safeFactory, safeMasterCopy } = sb.chain.wallets;
    const factory = new Contract(safeFactory, compiled.SafeProxyFactory.abi, operator);
    const signature = await owner.signTypedData(
      { name: 'Polymarket Contract Proxy Factory', chainId: sb.chain.chainId, verifyingContract: safeFactory },
      {
        CreateProxy: [
          { name: 'paymentToken', type: 'address' },
          { name: 'payment', type: 'uint256' },
          { name: 'paymentReceiver', type: 'address' },
        ],
      },
      { paymentToken: ZeroAddress, payment: 0n, paymentReceiver: ZeroAddress },
    );
    const sig = {
      v: Number(`0x${signature.slice(130, 132)}`),
      r: signature.slice(0, 66),
      s: `0x${signature.slice(66, 130)}`,
    };
    await mined(factory.getFunction('createProxy')(ZeroAddress, 0n, ZeroAddress, sig, TX_OVERRIDES));
    const address = safeOf(safeFactory, compiled.SafeProxy.bytecode, safeMasterCopy, owner.address);
    expect(await new Contract(address, compiled.Safe.abi, sb.provider).getFunction('getOwners')()).toEqual([
      owner.address,
    ]);
    expect(
      await revertOf(
        factory.getFunction('createProxy').staticCall(ZeroAddress, 0n, ZeroAddress, sig),
        factory.interface,
      ),
    ).toBe('create2 call failed');
  });
});

describe('deposit wallets: ERC-1271 with ERC-7739 wrapping', () => {
  it("accepts the owner's wrapped order signature, built here and by Polymarket's official client; refuses others", async () => {
    const owner = keyOf(accounts.deposit.owner);
    const wallet = new Contract(accounts.deposit.address, compiled.DepositWallet.abi, sb.provider);
    const order = await buyOrder(owner, accounts.deposit.address, 3, yes, 0.3, 10);
    expect((order.signature.length - 2) / 2).toBe(317);
    expect(await wallet.getFunction('isValidSignature')(orderHash(order), order.signature)).toBe(ERC1271_MAGIC);
    // Another order's hash, another key's wrapping, a cut signature: all refused.
    const other = await buyOrder(owner, accounts.deposit.address, 3, yes, 0.31, 10);
    expect(await wallet.getFunction('isValidSignature')(orderHash(other), order.signature)).toBe('0xffffffff');
    const forged = await buyOrder(alice, accounts.deposit.address, 3, yes, 0.3, 10);
    expect(await wallet.getFunction('isValidSignature')(orderHash(forged), forged.signature)).toBe('0xffffffff');
    expect(await wallet.getFunction('isValidSignature')(orderHash(order), order.signature.slice(0, -4))).toBe(
      '0xffffffff',
    );

    const client = new ClobClientV2({
      host: sb.server.url,
      chain: 80002,
      signer: officialSigner(owner) as never,
      creds: credsOf(owner),
      signatureType: 3,
      funderAddress: accounts.deposit.address,
      throwOnError: true,
    });
    const official = await client.createOrder(
      { tokenID: yes, price: 0.3, size: 10, side: SideV2.BUY },
      { tickSize: '0.01', negRisk: false },
    );
    expect([official.maker, official.signer, official.signatureType]).toEqual([
      accounts.deposit.address,
      accounts.deposit.address,
      3,
    ]);
    const asExchangeOrder: ExchangeOrder = {
      ...order,
      salt: BigInt(official.salt),
      makerAmount: BigInt(official.makerAmount),
      takerAmount: BigInt(official.takerAmount),
      timestamp: BigInt(String(official.timestamp)),
      signature: official.signature,
    };
    expect(await wallet.getFunction('isValidSignature')(orderHash(asExchangeOrder), official.signature)).toBe(
      ERC1271_MAGIC,
    );
  });
});

describe('deposit wallets: owner-signed batches', () => {
  const BATCH = {
    Batch: [
      { name: 'wallet', type: 'address' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
      { name: 'calls', type: 'Call[]' },
    ],
    Call: [
      { name: 'target', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'data', type: 'bytes' },
    ],
  };

  it('runs a Batch the owner signed, sent by anyone, once; refuses another key, a replay and a passed deadline', async () => {
    const owner = keyOf(accounts.deposit.owner);
    const wallet = new Contract(accounts.deposit.address, compiled.DepositWallet.abi, operator);
    const domain = {
      name: 'DepositWallet',
      version: '1',
      chainId: sb.chain.chainId,
      verifyingContract: accounts.deposit.address,
    };
    const calls = [
      {
        target: sb.chain.contracts.collateral,
        value: 0n,
        data: collateral.interface.encodeFunctionData('approve', [alice.address, 44n]),
      },
    ];
    const nonce = (await wallet.getFunction('nonce')()) as bigint;
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 600);
    const signed = await owner.signTypedData(domain, BATCH, {
      wallet: accounts.deposit.address,
      nonce,
      deadline,
      calls,
    });

    const forged = await alice.signTypedData(domain, BATCH, {
      wallet: accounts.deposit.address,
      nonce,
      deadline,
      calls,
    });
    expect(await revertOf(wallet.getFunction('execute').staticCall(calls, deadline, forged), wallet.interface)).toBe(
      'InvalidSignature',
    );
    const late = await owner.signTypedData(domain, BATCH, {
      wallet: accounts.deposit.address,
      nonce,
      deadline: 1n,
      calls,
    });
    expect(await revertOf(wallet.getFunction('execute').staticCall(calls, 1n, late), wallet.interface)).toBe('Expired');

    await mined(wallet.getFunction('execute')(calls, deadline, signed, TX_OVERRIDES));
    expect(await collateral.getFunction('allowance')(accounts.deposit.address, alice.address)).toBe(44n);
    expect(await wallet.getFunction('nonce')()).toBe(nonce + 1n);
    expect(await revertOf(wallet.getFunction('execute').staticCall(calls, deadline, signed), wallet.interface)).toBe(
      'InvalidSignature',
    );
  });
});

describe('orders from each account kind', () => {
  it('the exchange contract fills each kind from its account (fillOrder) and refuses wallets that are not the signer’s', async () => {
    // The operator is the counterparty: it holds YES from a split.
    const ctf = new Contract(
      sb.chain.contracts.conditionalTokens,
      [
        'function splitPosition(address,bytes32,bytes32,uint256[],uint256)',
        'function balanceOf(address,uint256) view returns (uint256)',
      ],
      operator,
    );
    await mined(
      ctf.getFunction('splitPosition')(
        sb.chain.contracts.collateral,
        ZeroHash,
        sb.binary.conditionId,
        [1, 2],
        usdc(30),
        TX_OVERRIDES,
      ),
    );
    for (const account of sb.chain.testAccounts) {
      const before = await sb.collateralOf(account.address);
      const order = await buyOrder(keyOf(account.owner), account.address, account.signatureType, yes, 0.25, 10);
      await mined(exchange.getFunction('fillOrder')(order, usdc(2.5), TX_OVERRIDES));
      expect(await sb.sharesOf(account.address, yes)).toBe(usdc(10));
      expect(await sb.collateralOf(account.address)).toBe(before - usdc(2.5));
    }

    const proxyOwner = keyOf(accounts.proxy.owner);
    const refused = async (order: ExchangeOrder) =>
      revertOf(exchange.getFunction('fillOrder').staticCall(order, usdc(2.5)));
    // Another owner's Safe as a proxy maker, the owner's proxy presented as a Safe, a deposit wallet signed by an EOA.
    expect(await refused(await buyOrder(proxyOwner, accounts.safe.address, 1, yes, 0.25, 10))).toBe('InvalidSignature');
    expect(await refused(await buyOrder(proxyOwner, accounts.proxy.address, 2, yes, 0.25, 10))).toBe(
      'InvalidSignature',
    );
    expect(await refused(await buyOrder(alice, accounts.deposit.address, 3, yes, 0.25, 10))).toBe('InvalidSignature');
    const eoaSigned = await buyOrder(keyOf(accounts.deposit.owner), accounts.deposit.address, 0, yes, 0.25, 10);
    expect(await refused({ ...eoaSigned, signatureType: 3 })).toBe('InvalidSignature');
  });

  it('the sandbox CLOB takes a resting order from each kind and settles it from the account (MINT against alice)', async () => {
    for (const account of sb.chain.testAccounts) {
      const owner = keyOf(account.owner);
      const [accountBefore, aliceBefore] = [
        await sb.collateralOf(account.address),
        await sb.collateralOf(alice.address),
      ];
      const sharesBefore = await sb.sharesOf(account.address, yes);
      const bid = await post(owner, await buyOrder(owner, account.address, account.signatureType, yes, 0.4, 10));
      expect(bid.body, account.kind).toMatchObject({ success: true, status: 'live' });
      const fill = await post(alice, await buyOrder(alice, alice.address, 0, no, 0.6, 10));
      expect(fill.body, account.kind).toMatchObject({ success: true, status: 'matched' });
      expect(await sb.sharesOf(account.address, yes)).toBe(sharesBefore + usdc(10));
      expect(await sb.collateralOf(account.address)).toBe(accountBefore - usdc(4));
      expect(await sb.collateralOf(alice.address)).toBe(aliceBefore - usdc(6));
      expect(await sb.sharesOf(owner.address, yes)).toBe(0n);
    }
  });

  it('the CLOB refuses a wallet that is not the signer’s, an EOA-signed type 3 and another key’s deposit wallet', async () => {
    const [proxyOwner, depositOwner] = [keyOf(accounts.proxy.owner), keyOf(accounts.deposit.owner)];
    expect(
      (await post(proxyOwner, await buyOrder(proxyOwner, accounts.safe.address, 1, yes, 0.2, 10))).body.error,
    ).toBe("invalid signature: the maker is not the signer's proxy wallet");
    expect(
      (await post(proxyOwner, await buyOrder(proxyOwner, accounts.safe.address, 2, yes, 0.2, 10))).body.error,
    ).toBe("invalid signature: the maker is not the signer's safe");
    const eoaSigned = await buyOrder(depositOwner, accounts.deposit.address, 3, yes, 0.2, 10);
    expect((await post(depositOwner, { ...eoaSigned, signer: depositOwner.address })).body.error).toBe(
      'invalid signature: a POLY_1271 order must have maker = signer (the deposit wallet)',
    );
    // Alice wraps an order for someone else's deposit wallet: not her key's wallet.
    expect((await post(alice, await buyOrder(alice, accounts.deposit.address, 3, yes, 0.2, 10))).body.error).toBe(
      'the order signer address has to be the address of the API KEY',
    );
    // The owner's key, but the wrapping signed by another key: the wallet says no.
    const forged = await buyOrder(alice, accounts.deposit.address, 3, yes, 0.2, 10);
    expect((await post(depositOwner, forged)).body.error).toBe('invalid signature');
  });

  it("posts the official client's type-3 order and reads the deposit wallet's balance with signature_type=3", async () => {
    const owner = keyOf(accounts.deposit.owner);
    const creds = credsOf(owner);
    const client = new ClobClientV2({
      host: sb.server.url,
      chain: 80002,
      signer: officialSigner(owner) as never,
      creds,
      signatureType: 3,
      funderAddress: accounts.deposit.address,
      throwOnError: true,
    });
    const posted = await client.createAndPostOrder(
      { tokenID: yes, price: 0.15, size: 10, side: SideV2.BUY },
      { tickSize: '0.01', negRisk: false },
    );
    expect(posted).toMatchObject({ success: true, status: 'live' });
    const view = await l2Request(
      sb.server.url,
      owner,
      creds,
      'GET',
      '/balance-allowance',
      undefined,
      '?asset_type=COLLATERAL&signature_type=3',
    );
    expect(view.body.balance).toBe((await sb.collateralOf(accounts.deposit.address)).toString());
    expect(view.body.allowances[sb.chain.contracts.exchange]).toBe((2n ** 256n - 1n).toString());
    expect(await client.cancelOrder({ orderID: posted.orderID })).toEqual({
      canceled: [posted.orderID],
      not_canceled: {},
    });
  });
});

describe('L1/L2 auth naming an account', () => {
  it('ClobAuth for one of the signer’s accounts derives the EOA’s key; L2 may name the account; not another’s', async () => {
    const owner = keyOf(accounts.proxy.owner);
    const creds = credsOf(owner);
    for (const account of [accounts.proxy.address]) {
      const l1 = (await createL1Headers(
        officialSigner(owner) as never,
        80002 as never,
        0,
        undefined,
        account,
      )) as unknown as Record<string, string>;
      const derived = await fetch(`${sb.server.url}/auth/derive-api-key`, { headers: l1 });
      expect(await derived.json()).toEqual({ apiKey: creds.key, secret: creds.secret, passphrase: creds.passphrase });
    }
    const foreign = (await createL1Headers(
      officialSigner(owner) as never,
      80002 as never,
      0,
      undefined,
      accounts.safe.address,
    )) as unknown as Record<string, string>;
    expect((await fetch(`${sb.server.url}/auth/derive-api-key`, { headers: foreign })).status).toBe(401);

    const l2 = async (address: string) => {
      const headers = (await createL2Headers(officialSigner(owner) as never, creds, {
        method: 'GET',
        requestPath: '/data/orders',
      })) as unknown as Record<string, string>;
      return (await fetch(`${sb.server.url}/data/orders`, { headers: { ...headers, POLY_ADDRESS: address } })).status;
    };
    expect(await l2(accounts.proxy.address)).toBe(200);
    expect(await l2(owner.address)).toBe(200);
    expect(await l2(accounts.deposit.address)).toBe(401);
  });
});
