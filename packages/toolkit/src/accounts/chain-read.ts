// What findAccounts reads from a chain, through any JSON-RPC reader (an ethers provider fits): contract code,
// collateral balances (ERC-20 balanceOf, summed over the tokens that count), and which era the deposit-wallet
// factory is in (its BEACON() answer, as the ts-sdk's deriveCurrentDepositWalletAddress asks).
import { isError } from 'ethers';
import { ErrorCode, PmDeskError } from '../model/errors';
import { checkedAddress, type DepositWalletEra } from './derive';
import type { ChainRead } from './classify';

/** The two calls needed; `JsonRpcProvider` has both. */
export interface RpcReader {
  getCode(address: string): Promise<string>;
  call(tx: { to: string; data: string }): Promise<string>;
}

const BALANCE_OF = '0x70a08231';
/** `BEACON()`: answered with the beacon's address once the factory was upgraded; reverts on the UUPS-era factory. */
const BEACON = '0x49493a4d';
const WORD = /^0x[0-9a-fA-F]{64}$/;

function invalid(what: string, answer: unknown): PmDeskError {
  return new PmDeskError(
    ErrorCode.VALIDATION_ERROR,
    `${what} answered ${String(answer).slice(0, 80)}, not one 32-byte word.`,
    { methodName: 'findAccounts' },
  );
}

/** A ChainRead over a JSON-RPC reader; the balance is the sum over `collateralTokens` (pUSD, and USDC.e if it counts). */
export function rpcChainRead(rpc: RpcReader, collateralTokens: readonly string[]): ChainRead {
  const tokens = collateralTokens.map((t) => checkedAddress(t, 'collateral token'));
  return {
    getCode: (address) => rpc.getCode(address),
    async collateralBalance(address) {
      const holder = checkedAddress(address, 'holder').slice(2).toLowerCase().padStart(64, '0');
      let total = 0n;
      for (const token of tokens) {
        const answer = await rpc.call({ to: token, data: `${BALANCE_OF}${holder}` });
        if (typeof answer !== 'string' || !WORD.test(answer))
          throw invalid(`balanceOf(${address}) on ${token}`, answer);
        total += BigInt(answer);
      }
      return total;
    },
  };
}

/**
 * The era new deposit wallets are made in: 'beacon' when the factory answers BEACON() with an address, 'uups'
 * when it reverts or answers zero. Wallets made before the upgrade keep their UUPS address either way.
 */
export async function depositWalletEra(rpc: RpcReader, factory: string): Promise<DepositWalletEra> {
  let answer: string;
  try {
    answer = await rpc.call({ to: checkedAddress(factory, 'deposit-wallet factory'), data: BEACON });
  } catch (error) {
    if (isError(error, 'CALL_EXCEPTION')) return 'uups';
    throw error;
  }
  if (answer === '0x') return 'uups';
  if (typeof answer !== 'string' || !WORD.test(answer)) throw invalid(`BEACON() on ${factory}`, answer);
  return BigInt(answer) === 0n ? 'uups' : 'beacon';
}
