// The exchange approvals an account still lacks before its first order, as calls the account makes in one relayed
// batch, as @polymarket/client's setupTradingApprovals does: unlimited collateral allowance and operator approval
// of each exchange spender, each read from the chain first so a set one is not sent again. Polymarket's client
// approves more spenders (the collateral adapters, its v2 router, exchange v3, perps deposits); PM Desk asks only
// for what its orders on the exchanges need, so a wallet grants nothing it does not use.
import { Interface, MaxUint256 } from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter } from '../model/errors';
import type { ChainCall } from '../accounts/actions';
import { checkedAddress } from '../accounts/derive';
import type { TokenReader } from '../collateral/pusd';

/** One approval an order needs: the collateral (ERC-20 allowance) or the outcome tokens (ERC-1155 operator). */
export interface TradingApproval {
  kind: 'collateral' | 'outcome-tokens';
  /** The contract holding the asset. */
  token: string;
  spender: string;
}

const ERC20 = new Interface([
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
]);
const ERC1155 = new Interface([
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function setApprovalForAll(address operator, bool approved)',
]);
/** More than any order asks: the exchange's own clients approve collateral without limit. */
const MAX_APPROVALS = 16;

async function word(rpc: TokenReader, to: string, data: string, what: string): Promise<bigint> {
  const answer = await rpc.call({ to, data });
  if (typeof answer !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(answer)) {
    throw new PmDeskError(
      ErrorCode.VALIDATION_ERROR,
      `${what} on ${to} answered ${String(answer).slice(0, 80)}, not one 32-byte word.`,
      { methodName: 'tradingApprovalCalls' },
    );
  }
  return BigInt(answer);
}

/**
 * The calls that set each of `approvals` the account lacks now, in the order given; none when all are set. A
 * collateral allowance below half the maximum is set to unlimited (what the official clients approve).
 */
export async function tradingApprovalCalls(
  rpc: TokenReader,
  accountAddress: string,
  approvals: readonly TradingApproval[],
): Promise<ChainCall[]> {
  const account = checkedAddress(accountAddress, 'account');
  if (!Array.isArray(approvals) || approvals.length === 0 || approvals.length > MAX_APPROVALS) {
    throw invalidParameter(
      `Trading approvals are 1 to ${MAX_APPROVALS} (token, spender) pairs.`,
      'tradingApprovalCalls',
    );
  }
  const calls: ChainCall[] = [];
  for (const approval of approvals) {
    const token = checkedAddress(String(approval?.token), 'token');
    const spender = checkedAddress(String(approval?.spender), 'spender');
    if (approval.kind === 'collateral') {
      const allowed = await word(rpc, token, ERC20.encodeFunctionData('allowance', [account, spender]), 'allowance');
      if (allowed < MaxUint256 / 2n)
        calls.push({ to: token, data: ERC20.encodeFunctionData('approve', [spender, MaxUint256]) });
    } else if (approval.kind === 'outcome-tokens') {
      const approved = await word(
        rpc,
        token,
        ERC1155.encodeFunctionData('isApprovedForAll', [account, spender]),
        'isApprovedForAll',
      );
      if (approved !== 1n)
        calls.push({ to: token, data: ERC1155.encodeFunctionData('setApprovalForAll', [spender, true]) });
    } else {
      throw invalidParameter('A trading approval is for the collateral or the outcome tokens.', 'tradingApprovalCalls');
    }
  }
  return calls;
}
