// `pmdesk convert --event E --from-no OUTCOMES --size N` as a black box on the sandbox: the real CLI process,
// the catalog's three-outcome Fed event read from the sandbox's Gamma (its negRiskMarketID is the adapter's
// market id), outcomes named by label or index; from the key (--via key) and from a proxy wallet through
// Polymarket's relayer; every position of the event and the collateral read back from the chain to the base
// unit. Nothing is sent without --yes; an unknown outcome and a size above the holdings are refused.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { compileContracts, sandboxProvider } from '../../sandbox/chain/index';
import { positionBalances } from '../../packages/toolkit/src/positions/resolution';
import { tokenBalance } from '../../packages/toolkit/src/collateral/pusd';
import { runPmdesk, type PmdeskRun } from '../helpers/pmdesk-process';

const EVENT = 'fed-decision-in-december-2026';
const SLOW = 240_000;
let sandbox: RunningSandbox;
let provider: ReturnType<typeof sandboxProvider>;
let dir: string;
let profileFile: string;

const fed = () => sandbox.catalog.events.find((e) => e.slug === EVENT)!;
const proxy = () => sandbox.profile.testAccounts.find((a) => a.kind === 'proxy')!;
const keyOf = (owner: string) =>
  sandbox.profile.testWallets.find((w) => getAddress(w.address) === getAddress(owner))!.privateKey;
/** [yes0, no0, yes1, no1, yes2, no2] of the Fed event's three markets. */
const held = (holder: string) =>
  positionBalances(
    provider,
    sandbox.profile.contracts.conditionalTokens,
    holder,
    fed().markets.flatMap((m) => m.tokens.map((t) => t.tokenId)),
  );
const cash = (holder: string) => tokenBalance(provider, sandbox.profile.contracts.collateral, holder);

/** Polymarket direct: the event's negRiskMarketID and questionID are Gamma's (the aggregator does not carry them). */
function pmdesk(args: string[], key: string): Promise<PmdeskRun> {
  return runPmdesk(['--network', profileFile, '--source', 'polymarket', ...args], {
    env: { PMDESK_PRIVATE_KEY: key },
  });
}
/** The JSON error --json prints as the last line of stderr (the account line may come first). */
const errorOf = (run: PmdeskRun) =>
  (JSON.parse(run.stderr.trim().split('\n').at(-1)!) as { error: { code: string; message: string } }).error;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0 }, simulate: 'off' });
  provider = sandboxProvider(sandbox.profile.rpcUrl, sandbox.profile.chainId);
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-cli-convert-'));
  profileFile = join(dir, 'sandbox.json');
  await writeFile(profileFile, JSON.stringify(sandbox.profile));
}, 180_000);

afterAll(async () => {
  provider?.destroy();
  await sandbox?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the event on Gamma and on the adapter', () => {
  it("Gamma's negRiskMarketID is the adapter's market id, each questionID the market id plus the question's index", async () => {
    const answer = await fetch(`${sandbox.profile.gammaUrl}/events/slug/${EVENT}`);
    const event = (await answer.json()) as { negRiskMarketID: string; markets: { id: string; questionID: string }[] };
    const adapter = new Contract(
      sandbox.profile.contracts.negRiskAdapter,
      compileContracts().NegRiskAdapter.abi,
      provider,
    );
    expect(await adapter.getFunction('getQuestionCount')(event.negRiskMarketID)).toBe(3n);
    for (const market of fed().markets) {
      const gamma = event.markets.find((m) => m.id === market.id)!;
      const index = BigInt(gamma.questionID) - BigInt(event.negRiskMarketID);
      expect(index).toBe(BigInt(fed().markets.indexOf(market)));
      expect((await adapter.getFunction('getPositionId')(gamma.questionID, false)).toString()).toBe(
        market.tokens[1].tokenId,
      );
    }
  });
});

describe('pmdesk convert', () => {
  it(
    'from the key: shows without --yes, then gives 4 No of "No change" and of outcome 1 for 4 Yes of "50+ bps cut" and $4',
    async () => {
      const trader = sandbox.profile.testWallets[0]!;
      for (const market of ['90011', '90012']) {
        const split = await pmdesk(['split', market, '10', '--yes', '--via', 'key'], trader.privateKey);
        expect(split.code, split.stderr).toBe(0);
      }
      const args = ['convert', '--event', EVENT, '--from-no', 'no change, 1', '--size', '4', '--via', 'key'];
      const [cash0, held0] = [await cash(trader.address), await held(trader.address)];
      const dry = await pmdesk(args, trader.privateKey);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toContain('4 No of No change, 4 No of 25 bps cut');
      expect(dry.stdout).toContain('4 Yes of 50+ bps cut, $4.00 pUSD');
      expect(dry.stdout).toContain('Nothing sent: add --yes to send.');
      expect(await held(trader.address)).toEqual(held0);

      const run = await pmdesk([...args, '--yes'], trader.privateKey);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/Sent: 0x[0-9a-f]{64}/);
      expect(await cash(trader.address)).toBe(cash0 + 4_000_000n);
      expect((await held(trader.address)).map((h, i) => h - held0[i]!)).toEqual([
        0n,
        -4_000_000n,
        0n,
        -4_000_000n,
        4_000_000n,
        0n,
      ]);
    },
    SLOW,
  );

  it(
    'from a proxy wallet through Polymarket\'s relayer: 2.5 No of "25 bps cut" for 2.5 Yes of each other outcome',
    async () => {
      const { address: holder, owner } = proxy();
      const key = keyOf(owner);
      const split = await pmdesk(['split', '90012', '5', '--yes', '--account', holder], key);
      expect(split.code, split.stderr).toBe(0);
      const [cash0, held0] = [await cash(holder), await held(holder)];
      const run = await pmdesk(
        [
          'convert',
          '--event',
          EVENT,
          '--from-no',
          '25 bps cut',
          '--size',
          '2.5',
          '--account',
          holder,
          '--yes',
          '--json',
        ],
        key,
      );
      expect(run.code, run.stderr).toBe(0);
      const out = JSON.parse(run.stdout) as { via: string; relayer: { transactionHash: string; state: string } };
      expect(out.via).toBe('relayer');
      expect(out.relayer.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await cash(holder)).toBe(cash0);
      expect((await held(holder)).map((h, i) => h - held0[i]!)).toEqual([
        2_500_000n,
        0n,
        0n,
        -2_500_000n,
        2_500_000n,
        0n,
      ]);
    },
    SLOW,
  );

  it(
    'refuses an outcome the event does not have and a size above the No shares held, sending nothing',
    async () => {
      const trader = sandbox.profile.testWallets[4]!;
      const before = await held(trader.address);
      const unknown = await pmdesk(
        ['convert', '--event', EVENT, '--from-no', '75 bps cut', '--size', '1', '--via', 'key', '--yes', '--json'],
        trader.privateKey,
      );
      expect(unknown.code).not.toBe(0);
      expect(errorOf(unknown)).toMatchObject({ code: 'ERR_INVALID_PARAM' });
      expect(errorOf(unknown).message).toMatch(
        /No outcome is named 75 bps cut in this event: 0 No change, 1 25 bps cut/,
      );
      const tooMuch = await pmdesk(
        ['convert', '--event', EVENT, '--from-no', '2', '--size', '1', '--via', 'key', '--yes', '--json'],
        trader.privateKey,
      );
      expect(tooMuch.code).not.toBe(0);
      expect(errorOf(tooMuch).message).toMatch(/holds 0 No shares of outcome 2; cannot convert 1/);
      expect(await held(trader.address)).toEqual(before);
    },
    SLOW,
  );
});
