// The exchange's lagging view of outcome-token balances (Polymarket's balance/allowance cache): shares a fill
// brings stay unseen by the order checks until `GET /balance-allowance/update` for that token, or until the
// cache's own refresh (`shareViewLagMs` after the fill), so a SELL right after a BUY is refused "not enough
// balance / allowance" as Polymarket refuses it (clob-client#310, py-clob-client#290). Opt-in: without the
// option every fill is seen at once.
import type { ClobState } from './state';

const key = (owner: string, tokenId: string) => `${owner.toLowerCase()}:${tokenId}`;

/**
 * Before a settlement moves shares: for each wallet that is about to receive some, remember the balance the
 * exchange last saw (the chain's now, unless an older view is still standing).
 */
export async function holdShareViews(state: ClobState, receivers: { owner: string; tokenId: string }[]): Promise<void> {
  const lag = state.options.shareViewLagMs ?? 0;
  if (lag <= 0) return;
  const now = state.now();
  for (const { owner, tokenId } of receivers) {
    const standing = state.shareViews.get(key(owner, tokenId));
    if (standing && standing.until > now) continue;
    const balance = (await state.ctf.getFunction('balanceOf')(owner, tokenId)) as bigint;
    state.shareViews.set(key(owner, tokenId), { balance, until: now + lag });
  }
}

/**
 * The balance the order checks see: the chain's, or less while a fill's shares are unseen. Shares that left the
 * wallet are seen at once (the view never shows more than the chain holds).
 */
export function seenShares(state: ClobState, owner: string, tokenId: string, onChain: bigint): bigint {
  const view = state.shareViews.get(key(owner, tokenId));
  if (!view) return onChain;
  if (view.until <= state.now()) {
    state.shareViews.delete(key(owner, tokenId));
    return onChain;
  }
  return view.balance < onChain ? view.balance : onChain;
}

/** `GET /balance-allowance/update` for a token: the exchange reads the chain again. */
export function refreshShareView(state: ClobState, owner: string, tokenId: string): void {
  state.shareViews.delete(key(owner, tokenId));
}
