// Which kind of account a wallet address is for a signing key (docs/protocol.md#accounts-and-signature-types, the ts-sdk's classifyWalletType),
// and which account a key trades from: the profile's wallet first, else a derived wallet the chain shows in use,
// else the key itself, with how each candidate was found.
import { PmDeskError, ErrorCode, invalidParameter } from '../model/errors';
import { AccountKind, SIGNATURE_TYPE_OF, checkedAddress, deriveAccounts, type DepositWalletEra } from './derive';
import type { WalletConfig } from '../chain/wallet-config';

/** An account a key can trade from: the address holding the funds, its kind and the signature type its orders carry. */
export interface Account {
  address: string;
  kind: AccountKind;
  signatureType: 0 | 1 | 2 | 3;
  /** Deposit wallets only: which derivation matched (accounts made before the factory's upgrade keep the UUPS one). */
  era?: DepositWalletEra;
}

/**
 * The kind of `wallet` for the key `signer`, compared case-insensitively in the ts-sdk's order: the key itself,
 * the deposit wallet (beacon era, then UUPS era), the Safe, the proxy. Anything else is refused, naming the address.
 */
export function classifyAccount(signer: string, wallet: string, config: WalletConfig): Account {
  const key = checkedAddress(signer, 'signer');
  const address = checkedAddress(wallet, 'wallet');
  if (address === key) return { address, kind: AccountKind.EOA, signatureType: 0 };
  const derived = deriveAccounts(key, config);
  if (address === derived.depositWallet?.beacon)
    return { address, kind: AccountKind.DEPOSIT_WALLET, signatureType: 3, era: 'beacon' };
  if (address === derived.depositWallet?.uups)
    return { address, kind: AccountKind.DEPOSIT_WALLET, signatureType: 3, era: 'uups' };
  if (address === derived.safe) return { address, kind: AccountKind.SAFE, signatureType: 2 };
  if (address === derived.proxy) return { address, kind: AccountKind.PROXY, signatureType: 1 };
  throw invalidParameter(
    `The wallet ${address} does not match the signer ${key} or any supported deterministic wallet address (proxy, Safe, deposit wallet) on this chain.`,
    'classifyAccount',
    {
      wallet: address,
    },
  );
}

/** What the caller reads from the chain for findAccounts (it implements this with ethers or viem). */
export interface ChainRead {
  /** `eth_getCode`: '0x' when nothing is deployed at the address. */
  getCode(address: string): Promise<string>;
  /** The collateral the address holds, in base units (pUSD, and USDC.e if the caller counts it). */
  collateralBalance(address: string): Promise<bigint>;
}

/** How a candidate came to be considered: the key itself, a CREATE2 derivation, or the profile's own word. */
export type FoundBy = 'key' | 'derivation' | 'profile';

export interface AccountCandidate extends Account {
  foundBy: FoundBy;
  /** Contract code at the address: the wallet is deployed (always false for the key itself, which is not read). */
  deployed: boolean;
  balance: bigint;
}

/** Why the chosen account was chosen. */
export type ChoiceReason = 'profile' | 'funded' | 'deployed' | 'key';

export interface FoundAccounts {
  owner: string;
  /** The key and every wallet derived for it on this chain (plus the profile's, when given), with what the chain says. */
  candidates: AccountCandidate[];
  chosen: AccountCandidate;
  reason: ChoiceReason;
  /** Other derived wallets that are also deployed or funded: the trader should confirm which one trades. */
  alsoInUse: AccountCandidate[];
}

export interface FindAccountsOptions {
  /** The wallet the trader's profile names (Gamma /public-profile `proxyWallet`, or typed in): it wins when it classifies. */
  profileWallet?: string;
  chainRead: ChainRead;
  config: WalletConfig;
}

/**
 * Every account `owner` could trade from, and the one to use: the profile's wallet when given (it must be the key
 * or one of its derivations, else the refusal names it); else a derived wallet holding funds, else one deployed
 * (in the ts-sdk's order: deposit wallet, Safe, proxy); else the key itself. A derivation alone never decides:
 * a candidate is chosen only for what the chain shows at it, and every one says how it was found.
 */
export async function findAccounts(owner: string, options: FindAccountsOptions): Promise<FoundAccounts> {
  const key = checkedAddress(owner, 'owner');
  const profile =
    options.profileWallet === undefined ? undefined : classifyAccount(key, options.profileWallet, options.config);
  const derived = deriveAccounts(key, options.config);
  const accounts: Account[] = [{ address: key, kind: AccountKind.EOA, signatureType: 0 }];
  const wallet = (address: string | undefined, kind: AccountKind, era?: DepositWalletEra) => {
    if (address) accounts.push({ address, kind, signatureType: SIGNATURE_TYPE_OF[kind], ...(era ? { era } : {}) });
  };
  wallet(derived.depositWallet?.beacon, AccountKind.DEPOSIT_WALLET, 'beacon');
  wallet(derived.depositWallet?.uups, AccountKind.DEPOSIT_WALLET, 'uups');
  wallet(derived.safe, AccountKind.SAFE);
  wallet(derived.proxy, AccountKind.PROXY);

  const candidates = await Promise.all(
    accounts.map(async (account): Promise<AccountCandidate> => {
      const isKey = account.kind === AccountKind.EOA;
      const [code, balance] = await Promise.all([
        isKey ? Promise.resolve('0x') : options.chainRead.getCode(account.address),
        options.chainRead.collateralBalance(account.address),
      ]);
      if (typeof code !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(code)) {
        throw new PmDeskError(
          ErrorCode.VALIDATION_ERROR,
          `getCode for ${account.address} answered ${String(code)}, not hex bytes.`,
          { methodName: 'findAccounts' },
        );
      }
      if (typeof balance !== 'bigint' || balance < 0n) {
        throw new PmDeskError(
          ErrorCode.VALIDATION_ERROR,
          `collateralBalance for ${account.address} answered ${String(balance)}, not a whole number of base units.`,
          {
            methodName: 'findAccounts',
          },
        );
      }
      const foundBy: FoundBy = profile?.address === account.address ? 'profile' : isKey ? 'key' : 'derivation';
      return { ...account, foundBy, deployed: code !== '0x', balance };
    }),
  );

  const wallets = candidates.filter((c) => c.kind !== AccountKind.EOA);
  const inUse = wallets.filter((c) => c.balance > 0n || c.deployed);
  let chosen: AccountCandidate;
  let reason: ChoiceReason;
  if (profile) {
    chosen = candidates.find((c) => c.address === profile.address)!;
    reason = 'profile';
  } else if (wallets.some((c) => c.balance > 0n)) {
    chosen = wallets.find((c) => c.balance > 0n)!;
    reason = 'funded';
  } else if (inUse.length > 0) {
    chosen = inUse[0]!;
    reason = 'deployed';
  } else {
    chosen = candidates[0]!;
    reason = 'key';
  }
  return { owner: key, candidates, chosen, reason, alsoInUse: inUse.filter((c) => c !== chosen) };
}

/** What a trader may say about the account to sign for: its address, its signature type, or both. */
export interface AccountOverride {
  account?: string;
  signatureType?: number;
}

const KIND_NAMES: Readonly<Record<AccountKind, string>> = {
  eoa: 'own address',
  proxy: 'proxy wallet',
  safe: 'Safe',
  'deposit-wallet': 'deposit wallet',
};

/**
 * The account a key signs orders for, from a trader's override, checked before anything is signed: an address
 * must be the key itself or one of its derivations on this chain (and of the given type, when both are said);
 * a type alone means the key's own wallet of that kind (the current-era deposit wallet for type 3); nothing means the key.
 */
export function accountForOverride(signer: string, override: AccountOverride, config: WalletConfig): Account {
  const { account, signatureType } = override;
  if (signatureType !== undefined && ![0, 1, 2, 3].includes(signatureType)) {
    throw invalidParameter(
      `The signature type must be 0 (EOA), 1 (proxy), 2 (Safe) or 3 (deposit wallet), got ${String(signatureType)}.`,
      'accountForOverride',
    );
  }
  const key = checkedAddress(signer, 'signer');
  if (account !== undefined) {
    const found = classifyAccount(key, account, config);
    if (signatureType !== undefined && found.signatureType !== signatureType) {
      throw invalidParameter(
        `The account ${found.address} is the key's ${KIND_NAMES[found.kind]} (signature type ${found.signatureType}), not a signature type ${signatureType} account.`,
        'accountForOverride',
      );
    }
    return found;
  }
  if (!signatureType) return { address: key, kind: AccountKind.EOA, signatureType: 0 };
  const derived = deriveAccounts(key, config);
  const kind =
    signatureType === 1 ? AccountKind.PROXY : signatureType === 2 ? AccountKind.SAFE : AccountKind.DEPOSIT_WALLET;
  const address =
    signatureType === 1 ? derived.proxy : signatureType === 2 ? derived.safe : derived.depositWallet?.beacon;
  if (!address)
    throw invalidParameter(
      `This chain has no ${KIND_NAMES[kind]} factory: signature type ${signatureType} cannot be derived here.`,
      'accountForOverride',
    );
  return {
    address,
    kind,
    signatureType: signatureType as 1 | 2 | 3,
    ...(kind === AccountKind.DEPOSIT_WALLET ? { era: 'beacon' as const } : {}),
  };
}
