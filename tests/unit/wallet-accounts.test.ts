// Main's WalletAccounts over an in-memory chain reader (its two JSON-RPC calls answered from a table) and market
// source: the profile's wallet when it is the key's, a note (and the chain's pick) when it is not or cannot be
// read, the chain's silence said as a network error, and a choice kept per wallet and network in settings.json,
// where an address the key does not control is refused and nothing is kept.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode, PmDeskError } from '../../packages/toolkit/src/model/errors';
import { POLYGON_WALLETS } from '../../packages/toolkit/src/chain/wallet-config';
import type { MarketSource } from '../../packages/toolkit/src/model/market-source';
import { SettingsStore } from '../../src/main/settings/settings';
import { WalletAccounts } from '../../src/main/trading/wallet-accounts';

const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
/** OWNER's Safe and proxy on Polygon (docs/protocol.md#address-derivation row 1), and another key's Safe (row 2). */
const SAFE = '0xd93B25cb943D14d0d34FBaF01Fc93a0f8b5F6E47';
const PROXY = '0x365f0CA36Ae1f641E02fE3B7743673da42A13A70';
const OTHER_SAFE = '0x8ac5D4Bd2752AFc9F5CA531f19D617647216B893';
const USDC = '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** The Safe deployed with 25 dollars; every other address empty. */
function chain(options: { down?: boolean } = {}) {
  const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;
  return {
    getCode: async (address: string) => {
      if (options.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      return address.toLowerCase() === SAFE.toLowerCase() ? '0x6080' : '0x';
    },
    call: async ({ data }: { to: string; data: string }) =>
      word(data.toLowerCase().endsWith(SAFE.slice(2).toLowerCase()) ? 25_000_000n : 0n),
  };
}

async function accounts(profile: () => Promise<string | null>, options: { down?: boolean } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'pmdesk-wallet-accounts-'));
  dirs.push(dir);
  const settings = new SettingsStore(dir);
  const markets = { getProfileWallet: profile } as unknown as MarketSource;
  const wallets = { list: async () => [{ label: 'desk', address: OWNER }] };
  return {
    dir,
    service: new WalletAccounts(
      { name: 'polygon', wallets: POLYGON_WALLETS, collateral: [USDC], chain: chain(options) },
      wallets,
      markets,
      settings,
    ),
  };
}

describe('WalletAccounts', () => {
  it('takes the profile’s wallet when it is one of the key’s accounts', async () => {
    const { service } = await accounts(async () => PROXY);
    expect(await service.accountOf('desk')).toMatchObject({
      reason: 'profile',
      account: { address: PROXY, kind: 'proxy', foundBy: 'profile', deployed: false },
      alsoInUse: [SAFE],
    });
    expect(await service.tradingAccount(OWNER)).toEqual({ address: PROXY, kind: 'proxy', signatureType: 1 });
  });

  it('names a profile wallet the key does not control, and trades from what the chain shows instead', async () => {
    const { service } = await accounts(async () => OTHER_SAFE);
    const found = await service.accountOf('desk');
    expect(found).toMatchObject({
      reason: 'funded',
      account: { address: SAFE, kind: 'safe', collateral: 25 },
      description: `Polymarket account ${SAFE} (Safe, owned by key ${OWNER})`,
    });
    expect(found.profileNote).toBe(
      `The Polymarket profile of ${OWNER} names the wallet ${OTHER_SAFE}, which is not one of this key's accounts on this chain: PM Desk cannot trade from it.`,
    );
  });

  it('goes on from the chain when the profile cannot be read, and says so', async () => {
    const { service } = await accounts(async () => {
      throw new PmDeskError(ErrorCode.NETWORK_ERROR, 'Gamma did not answer.');
    });
    const found = await service.accountOf('desk');
    expect(found).toMatchObject({ reason: 'funded', account: { address: SAFE } });
    expect(found.profileNote).toMatch(
      /could not be read \(Gamma did not answer\.\): the account was found from the chain alone/,
    );
  });

  it('says a silent chain as a network error, not an internal one', async () => {
    const { service } = await accounts(async () => null, { down: true });
    await expect(service.accountOf('desk')).rejects.toMatchObject({
      code: ErrorCode.NETWORK_ERROR,
      detail: expect.stringMatching(/did not answer while looking for the Polymarket account/),
    });
  });

  it('keeps a choice of the key’s own per wallet and network, and refuses another key’s account without keeping anything', async () => {
    const { dir, service } = await accounts(async () => null);
    await expect(service.choose('desk', OTHER_SAFE)).rejects.toMatchObject({
      code: ErrorCode.INVALID_PARAMETER,
      detail: expect.stringContaining(`The wallet ${OTHER_SAFE} does not match the signer ${OWNER}`),
    });
    await expect(readFile(join(dir, 'settings.json'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });

    expect(await service.choose('desk', OWNER.toLowerCase())).toMatchObject({
      chosenBy: 'trader',
      reason: 'trader',
      account: { address: OWNER, kind: 'eoa' },
    });
    expect(JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')).accounts).toEqual({
      [`polygon|${OWNER.toLowerCase()}`]: OWNER,
    });
    expect(await service.tradingAccount(OWNER)).toEqual({ address: OWNER, kind: 'eoa', signatureType: 0 });
    expect(await service.choose('desk', null)).toMatchObject({ chosenBy: 'found', account: { address: SAFE } });
    expect(JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8')).accounts).toBeUndefined();
  });
});
