// The Portfolio's chain fees are read once a session: a JSON-RPC node with fixed answers on a real socket is
// asked for each trade's receipt once, the fee comes from the exchange's OrderFilled event whose maker is the
// account, and a transaction with no receipt yet is asked again the next time.
import { Interface, JsonRpcProvider, Network, zeroPadValue, toBeHex } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberedChainFees } from '../../src/main/portfolio/chain-fee-memo';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';

const EXCHANGE = `0x${'e1'.repeat(20)}`;
const ACCOUNT = `0x${'a1'.repeat(20)}`;
const OTHER = `0x${'b2'.repeat(20)}`;
const [H1, H2, H3] = ['11', '22', '33'].map((b) => `0x${b.repeat(32)}`) as [string, string, string];

const ORDER_FILLED = new Interface([
  'event OrderFilled(bytes32 indexed orderHash, address indexed maker, address indexed taker, uint256 makerAssetId, uint256 takerAssetId, uint256 makerAmountFilled, uint256 takerAmountFilled, uint256 fee)',
]);

/** One OrderFilled log of the exchange: `maker`'s order paid `fee`. */
function filled(maker: string, fee: bigint, index: number) {
  const { topics, data } = ORDER_FILLED.encodeEventLog('OrderFilled', [
    zeroPadValue(toBeHex(index + 1), 32),
    maker,
    EXCHANGE,
    1n,
    0n,
    10_000_000n,
    4_000_000n,
    fee,
  ]);
  return { address: EXCHANGE, topics, data, logIndex: toBeHex(index), removed: false };
}

function receipt(hash: string, logs: ReturnType<typeof filled>[]) {
  const block = `0x${'bb'.repeat(32)}`;
  return {
    transactionHash: hash,
    transactionIndex: '0x0',
    blockHash: block,
    blockNumber: '0x10',
    from: ACCOUNT,
    to: EXCHANGE,
    cumulativeGasUsed: '0x5208',
    gasUsed: '0x5208',
    effectiveGasPrice: '0x1',
    contractAddress: null,
    logs: logs.map((l) => ({
      ...l,
      blockHash: block,
      blockNumber: '0x10',
      transactionHash: hash,
      transactionIndex: '0x0',
    })),
    logsBloom: `0x${'0'.repeat(512)}`,
    status: '0x1',
    type: '0x2',
  };
}

let node: FixtureServer;
let provider: JsonRpcProvider;
/** H1: the account's fill paid 12,345 base units (another maker's 999 is not the account's); H2: no fee; H3: not mined yet. */
const receipts: Record<string, unknown> = {
  [H1]: receipt(H1, [filled(ACCOUNT, 12_345n, 0), filled(OTHER, 999n, 1)]),
  [H2]: receipt(H2, [filled(ACCOUNT, 0n, 0)]),
};
const asked = () =>
  node.requests
    .map((r) => JSON.parse(r.body) as { method: string; params: string[] })
    .filter((r) => r.method === 'eth_getTransactionReceipt')
    .map((r) => r.params[0]);

beforeAll(async () => {
  node = await startFixtureServer();
  node.on('POST', '/', (request, reply) => {
    const call = JSON.parse(request.body) as { id: number; method: string; params: string[] };
    const result = call.method === 'eth_getTransactionReceipt' ? (receipts[call.params[0]!] ?? null) : null;
    reply.json(200, { jsonrpc: '2.0', id: call.id, result });
  });
  // No request cache: a receipt asked again must reach the node, as it would seconds later.
  provider = new JsonRpcProvider(node.url, Network.from(137), {
    staticNetwork: true,
    batchMaxCount: 1,
    cacheTimeout: -1,
  });
});

afterAll(async () => {
  provider?.destroy();
  await node?.stop();
});

describe('chain fees read once a session', () => {
  it("reads each receipt once, keeps the account's fees, and asks again for one not mined yet", async () => {
    const fees = rememberedChainFees({ reader: provider, exchanges: [EXCHANGE] });
    expect(await fees(ACCOUNT, [H1, H2, H3])).toEqual(
      new Map([
        [H1, 12_345n],
        [H2, 0n],
      ]),
    );
    expect(asked()).toEqual([H1, H2, H3]);

    receipts[H3] = receipt(H3, [filled(ACCOUNT, 7n, 0)]);
    expect(await fees(ACCOUNT, [H1, H2, H3])).toEqual(
      new Map([
        [H1, 12_345n],
        [H2, 0n],
        [H3, 7n],
      ]),
    );
    // Only the transaction that had no receipt was asked again.
    expect(asked()).toEqual([H1, H2, H3, H3]);

    // Another account's fees in the same transaction are its own read.
    expect(await fees(OTHER, [H1])).toEqual(new Map([[H1, 999n]]));
    expect(asked()).toEqual([H1, H2, H3, H3, H1]);
  });
});
