// Converting No positions of a negative-risk event (the neg-risk adapter's `convertPositions`): the chosen
// questions' No shares in, the other questions' Yes shares and (k − 1)·N collateral out, less the event's fee.
// Everything the call depends on — the event's questions, their position ids, the fee, what the account holds —
// is read from the adapter and ConditionalTokens first, so a wrong index, a missing holding or an unknown event
// is refused before anything is signed.
import { Interface } from 'ethers';
import { invalidParameter } from '../model/errors';
import type { ChainCall } from '../accounts/actions';
import { requireContract, type ActionContracts } from '../accounts/action-contracts';
import type { TokenReader } from '../collateral/pusd';
import { formatUsd, positionBalances } from './resolution';

/** Polymarket's NegRiskAdapter reads and its convert call (repository Polymarket/neg-risk-ctf-adapter). */
export const NEG_RISK_CONVERT_ABI = new Interface([
  'function convertPositions(bytes32 marketId, uint256 indexSet, uint256 amount)',
  'function getQuestionCount(bytes32 marketId) view returns (uint256)',
  'function getFeeBips(bytes32 marketId) view returns (uint256)',
  'function getPositionId(bytes32 questionId, bool outcome) view returns (uint256)',
]);
const ERC1155 = new Interface([
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function setApprovalForAll(address operator, bool approved)',
]);

/** The fee denominator of the adapter's `feeBips`. */
const FEE_DENOMINATOR = 10_000n;
/** The adapter keeps at most 256 questions per event (an index is the question id's last byte). */
const MAX_QUESTIONS = 256;

/** A conversion as the trader asks for it: the event's market id and the indexes of the questions whose No they give. */
export interface ConvertRequest {
  /** The event's market id on the neg-risk adapter (Gamma's `negRiskMarketID`): 0x and 64 hex digits. */
  marketId: string;
  /** Question indexes (0 = the first question of the event), each once. */
  fromNo: number[];
}

/** One question's side of a conversion: its index, question id and the position id moved. */
export interface ConvertLeg {
  index: number;
  questionId: string;
  tokenId: string;
}

/** What a conversion of `amount` No shares of each chosen question gives and receives, to the base unit. */
export interface ConvertPlan {
  marketId: string;
  indexSet: bigint;
  questionCount: number;
  /** Shares of each chosen question's No given. */
  amount: bigint;
  given: ConvertLeg[];
  /** Yes positions received, `yesEach` shares of each. */
  received: ConvertLeg[];
  yesEach: bigint;
  /** Collateral received: (k − 1)·(amount − fee per share). */
  collateral: bigint;
  feeBips: bigint;
  /** The fee kept from each received Yes position and from each unit of the collateral multiplier. */
  feePerShare: bigint;
  /** Total fee: on the Yes positions (in shares) and on the collateral (in base units). */
  feeShares: bigint;
  feeCollateral: bigint;
}

/** The index set of the chosen questions: bit i for question i. */
export function convertIndexSet(fromNo: readonly number[], questionCount: number): bigint {
  if (!Array.isArray(fromNo) || fromNo.length === 0)
    throw invalidParameter('Choose at least one outcome whose No shares you give.');
  let set = 0n;
  for (const index of fromNo) {
    if (!Number.isInteger(index) || index < 0 || index >= questionCount)
      throw invalidParameter(
        `Outcome index ${String(index).slice(0, 12)} is not in this event (it has ${questionCount} outcomes, 0 to ${questionCount - 1}).`,
      );
    const bit = 1n << BigInt(index);
    if ((set & bit) !== 0n) throw invalidParameter(`Outcome ${index} is chosen twice.`);
    set |= bit;
  }
  return set;
}

/** A question id: the event's market id plus the question's index (Polymarket's NegRiskIdLib). */
export function questionIdOf(marketId: string, index: number): string {
  return '0x' + (BigInt(marketId) + BigInt(index)).toString(16).padStart(64, '0');
}

function checkedMarketId(marketId: unknown): string {
  if (typeof marketId !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(marketId))
    throw invalidParameter(
      `A neg-risk event's market id is 0x and 64 hex digits (Gamma's negRiskMarketID), got ${String(marketId).slice(0, 70)}.`,
    );
  if ((BigInt(marketId) & 0xffn) !== 0n)
    throw invalidParameter(`${marketId} is a question id, not an event's market id (its last byte is not zero).`);
  return marketId.toLowerCase();
}

async function adapterWord(rpc: TokenReader, adapter: string, data: string, what: string): Promise<bigint> {
  const answer = await rpc.call({ to: adapter, data });
  if (typeof answer !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(answer))
    throw invalidParameter(`The neg-risk adapter answered ${String(answer).slice(0, 40)} for ${what}.`);
  return BigInt(answer);
}

/**
 * Reads the event from the adapter and works out exactly what converting `amount` No shares of each chosen
 * question gives and receives; refuses an unknown event, an event of one question, a bad choice, and an amount
 * above what `account` holds of any chosen No.
 */
export async function convertPlan(
  rpc: TokenReader,
  contracts: ActionContracts,
  account: string,
  request: ConvertRequest,
  amount: bigint,
): Promise<ConvertPlan> {
  const adapter = requireContract(contracts, 'negRiskAdapter', 'a conversion');
  const ctf = requireContract(contracts, 'conditionalTokens', 'a conversion');
  const marketId = checkedMarketId(request?.marketId);
  const count = await adapterWord(
    rpc,
    adapter,
    NEG_RISK_CONVERT_ABI.encodeFunctionData('getQuestionCount', [marketId]),
    'the question count',
  );
  if (count === 0n)
    throw invalidParameter(`The neg-risk adapter knows no event ${marketId}: it is not a negative-risk event here.`);
  if (count < 2n || count > BigInt(MAX_QUESTIONS))
    throw invalidParameter(`The event ${marketId} has ${count} question(s): there is nothing to convert into.`);
  const questionCount = Number(count);
  const indexSet = convertIndexSet(request.fromNo, questionCount);
  const feeBips = await adapterWord(
    rpc,
    adapter,
    NEG_RISK_CONVERT_ABI.encodeFunctionData('getFeeBips', [marketId]),
    'the fee',
  );
  const positionId = async (index: number, yes: boolean): Promise<ConvertLeg> => {
    const questionId = questionIdOf(marketId, index);
    const id = await adapterWord(
      rpc,
      adapter,
      NEG_RISK_CONVERT_ABI.encodeFunctionData('getPositionId', [questionId, yes]),
      `question ${index}'s position id`,
    );
    return { index, questionId, tokenId: id.toString() };
  };
  const indexes = Array.from({ length: questionCount }, (_, i) => i);
  const chosen = (i: number) => (indexSet & (1n << BigInt(i))) !== 0n;
  const given = await Promise.all(indexes.filter(chosen).map((i) => positionId(i, false)));
  const received = await Promise.all(indexes.filter((i) => !chosen(i)).map((i) => positionId(i, true)));
  if (amount <= 0n) throw invalidParameter('The conversion size must be more than zero shares.');
  const held = await positionBalances(
    rpc,
    ctf,
    account,
    given.map((g) => g.tokenId),
  );
  given.forEach((leg, i) => {
    if (held[i]! < amount)
      throw invalidParameter(
        `${account} holds ${sharesOf(held[i]!)} No shares of outcome ${leg.index}; cannot convert ${sharesOf(amount)}.`,
      );
  });
  const feePerShare = (amount * feeBips) / FEE_DENOMINATOR;
  const net = amount - feePerShare;
  const k = BigInt(given.length);
  return {
    marketId,
    indexSet,
    questionCount,
    amount,
    given,
    received,
    yesEach: net,
    collateral: k > 1n ? (k - 1n) * net : 0n,
    feeBips,
    feePerShare,
    feeShares: feePerShare * BigInt(received.length),
    feeCollateral: k > 1n ? (k - 1n) * feePerShare : 0n,
  };
}

/** The calls: ConditionalTokens' operator approval for the adapter when missing, then the conversion. */
export async function convertCalls(
  rpc: TokenReader,
  contracts: ActionContracts,
  account: string,
  plan: ConvertPlan,
): Promise<ChainCall[]> {
  const adapter = requireContract(contracts, 'negRiskAdapter', 'a conversion');
  const ctf = requireContract(contracts, 'conditionalTokens', 'a conversion');
  const approved = await adapterWord(
    rpc,
    ctf,
    ERC1155.encodeFunctionData('isApprovedForAll', [account, adapter]),
    'the adapter approval',
  );
  return [
    ...(approved === 1n ? [] : [{ to: ctf, data: ERC1155.encodeFunctionData('setApprovalForAll', [adapter, true]) }]),
    {
      to: adapter,
      data: NEG_RISK_CONVERT_ABI.encodeFunctionData('convertPositions', [plan.marketId, plan.indexSet, plan.amount]),
    },
  ];
}

/** Shares as a trader reads them ("12.5"). */
function sharesOf(units: bigint): string {
  return formatUsd(units)
    .replace(/^(-?)\$/, '$1')
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}

/** The plan line by line, exact: what is given and what is received. */
export function convertLines(plan: ConvertPlan, names: (index: number) => string = (i) => `outcome ${i}`): string[] {
  const lines = plan.given.map((g) => `Give ${sharesOf(plan.amount)} No of ${names(g.index)}`);
  for (const r of plan.received) lines.push(`Receive ${sharesOf(plan.yesEach)} Yes of ${names(r.index)}`);
  if (plan.collateral > 0n) lines.push(`Receive ${formatUsd(plan.collateral)} pUSD`);
  if (plan.feePerShare > 0n)
    lines.push(
      `Fee (${plan.feeBips} bps): ${sharesOf(plan.feeShares)} Yes shares and ${formatUsd(plan.feeCollateral)} pUSD`,
    );
  return lines;
}
