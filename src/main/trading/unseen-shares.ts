// Polymarket's exchange caches each wallet's outcome-token balances and does not see the shares a fill brought
// until it is asked to read the chain again (GET /balance-allowance/update for that token): a SELL right after a
// BUY is otherwise refused "not enough balance / allowance" (clob-client#310, py-clob-client#290). This keeps
// which tokens an order of this session may have brought shares of, so the next SELL of one asks first.
import type { Logger } from '@pmdesk/toolkit';

export class UnseenShares {
  /** Per account and token: whether a BUY of it still rests (and may fill after any refresh). */
  private readonly bought = new Map<string, { resting: boolean }>();

  /** A BUY was placed: matched now, or resting to fill later. */
  boughtShares(account: string, tokenId: string, resting: boolean): void {
    const key = keyOf(account, tokenId);
    this.bought.set(key, { resting: resting || (this.bought.get(key)?.resting ?? false) });
  }

  /**
   * Before a SELL of `tokenId`: when an order of this session may have brought shares of it, the exchange is
   * asked to read them (`refresh`). A resting BUY can fill again later, so its token stays marked. A failed
   * refresh is logged and the SELL goes on (the exchange then says what it sees).
   */
  async beforeSell(account: string, tokenId: string, refresh: () => Promise<unknown>, logger: Logger): Promise<void> {
    const key = keyOf(account, tokenId);
    const mark = this.bought.get(key);
    if (!mark) return;
    try {
      await refresh();
      if (!mark.resting) this.bought.delete(key);
    } catch (error) {
      logger.warn('GET /balance-allowance/update before a SELL failed; posting it anyway', error);
    }
  }
}

const keyOf = (account: string, tokenId: string) => `${account.toLowerCase()}:${tokenId}`;
