// How the sandbox CLOB treats Polymarket's account kinds (docs/protocol.md#accounts-and-signature-types; decisions in docs/sandbox.md):
// an API key belongs to the EOA that signed ClobAuth, which may name the EOA or one of its accounts (proxy,
// Safe, deposit wallet) in POLY_ADDRESS; an order's signer is the key's EOA (types 0–2) or the EOA's deposit
// wallet (type 3, maker = signer, judged by the wallet's ERC-1271 isValidSignature through eth_call); balances
// are read at the maker, i.e. the account.
import { Contract, getAddress, recoverAddress, type JsonRpcProvider } from 'ethers';
import { accountAddress, accountKindOf, type SandboxWallets } from '../chain/wallet-addresses';
import type { ExchangeOrder } from '../chain/order-typed-data';

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
/** Above this s a signature is the malleable twin of another one (EIP-2). */
const MAX_S = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;
const ERC1271_MAGIC = '0x1626ba7e';

/** Whether `address` is `eoa` itself or one of its accounts on this chain (what L1/L2 POLY_ADDRESS may name). */
export function controlsAddress(wallets: SandboxWallets, eoa: string, address: string): boolean {
  return eoa.toLowerCase() === address.toLowerCase() || accountKindOf(wallets, eoa, address) !== undefined;
}

/** Where `eoa`'s funds sit for a balance query with this signature_type ('0' or '-1': the EOA itself). */
export function fundsHolder(wallets: SandboxWallets, eoa: string, signatureType: string): string {
  if (signatureType === '1') return accountAddress(wallets, 'proxy', eoa);
  if (signatureType === '2') return accountAddress(wallets, 'safe', eoa);
  if (signatureType === '3') return accountAddress(wallets, 'deposit', eoa);
  return eoa;
}

/**
 * Checks an order's signature and that the caller's key may sign it; a refusal message in Polymarket's words,
 * or undefined. The proxy/Safe derivation (maker = the signer's wallet) is checked afterwards on the chain.
 */
export async function signatureRefusal(
  order: ExchangeOrder,
  orderHash: string,
  keyOwner: string,
  wallets: SandboxWallets,
  provider: JsonRpcProvider,
): Promise<string | undefined> {
  if (order.signatureType === 3) {
    // POLY_1271: the deposit wallet is maker and signer; the owner's ERC-7739 signature is the wallet's to judge.
    if (order.maker.toLowerCase() !== order.signer.toLowerCase())
      return 'invalid signature: a POLY_1271 order must have maker = signer (the deposit wallet)';
    if (getAddress(order.signer) !== accountAddress(wallets, 'deposit', keyOwner))
      return 'the order signer address has to be the address of the API KEY';
    if (!(await isValidContractSignature(provider, order.signer, orderHash, order.signature)))
      return 'invalid signature';
    return undefined;
  }
  let signer = ZERO_ADDRESS;
  try {
    if (order.signature.length === 132) signer = recoverAddress(orderHash, order.signature);
  } catch {
    return 'invalid signature';
  }
  const s = order.signature.length === 132 ? BigInt(`0x${order.signature.slice(66, 130)}`) : 0n;
  if (signer === ZERO_ADDRESS || s > MAX_S || signer.toLowerCase() !== order.signer.toLowerCase())
    return 'invalid signature';
  if (getAddress(order.signer) !== getAddress(keyOwner))
    return 'the order signer address has to be the address of the API KEY';
  if (order.signatureType === 0 && order.maker.toLowerCase() !== order.signer.toLowerCase())
    return 'invalid signature: an EOA order must have maker = signer';
  return undefined;
}

/** ERC-1271 through eth_call: the wallet must have code and answer the magic value. */
export async function isValidContractSignature(
  provider: JsonRpcProvider,
  wallet: string,
  hash: string,
  signature: string,
): Promise<boolean> {
  const contract = new Contract(
    wallet,
    ['function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)'],
    provider,
  );
  try {
    if ((await provider.getCode(wallet)) === '0x') return false;
    return ((await contract.getFunction('isValidSignature')(hash, signature)) as string) === ERC1271_MAGIC;
  } catch {
    // A revert or a malformed answer is a refusal, as on the exchange.
    return false;
  }
}
