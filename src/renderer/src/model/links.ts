// "Open this market" links: the page's fragment may carry `market=<id>` (and `event=<id>`, `protocol=…`,
// `outcome=<tokenId>`) next to the launch token, e.g. `#token=…&market=506729&event=16085&outcome=123`. The outcome
// is not called `token` because the launch token already is. Anything malformed is ignored.

export interface MarketLink {
  protocol: 'polymarket' | 'limitless' | 'truemarket';
  marketId: string;
  eventId?: string;
  /** The outcome token to show first. */
  tokenId?: string;
}

export function marketLinkFromHash(hash: string): MarketLink | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const valid = (value: string | null) => (value && /^[A-Za-z0-9_.:-]{1,200}$/.test(value) ? value : undefined);
  const marketId = valid(params.get('market'));
  if (!marketId) return null;
  const protocolParam = params.get('protocol');
  const protocol = protocolParam === 'limitless' || protocolParam === 'truemarket' ? protocolParam : 'polymarket';
  const eventId = valid(params.get('event'));
  const outcome = params.get('outcome')?.trim() ?? '';
  const tokenId = /^\d{1,80}$/.test(outcome) ? outcome : undefined;
  return { protocol, marketId, ...(eventId ? { eventId } : {}), ...(tokenId ? { tokenId } : {}) };
}
