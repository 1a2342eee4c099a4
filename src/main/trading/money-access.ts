// The contract's money operations (getAccountFunds, previewMoneyAction, runMoneyAction) over the order flow: a
// wallet named by its label acts as its Polymarket account on this network, through the signer holding its key.
import type { MoneyActionDone, MoneyActionPreview } from '../../shared/contract';
import { fundsOnChain, moneyAction, type MoneyActionOutcome } from './money';
import type { TradingService as OrderFlow } from './service';
import type { EventHub } from '../ipc/event-hub';
import type { MoneyService } from '../ipc/services';
import { tradingWalletNamed, type TradingWallets } from './trading-access';
import { relayerProgress } from './relayer-progress';
import { forgetRelayerCredentials, saveRelayerCredentials } from './relayer-access';

const preview = (
  wallet: string,
  { txHashes: _sent, exchangeRefreshed: _asked, relayer: _relayed, ...rest }: MoneyActionOutcome,
): MoneyActionPreview => ({ wallet, ...rest });

/** `hub`: every window hears each transaction a money action sent, as a notice. */
export function moneyAccess(flow: OrderFlow, wallets: TradingWallets, hub?: EventHub): MoneyService {
  return {
    funds: async ({ wallet }) => ({ wallet, ...(await fundsOnChain(flow, await tradingWalletNamed(wallets, wallet))) }),
    preview: async ({ wallet, action, marketId, amount, via }) =>
      preview(
        wallet,
        await moneyAction(flow, await tradingWalletNamed(wallets, wallet), { action, marketId, amount, via }, false),
      ),
    run: async ({ wallet, action, marketId, amount, via }): Promise<MoneyActionDone> => {
      const trader = await tradingWalletNamed(wallets, wallet);
      // Money moves: an order made ready before or during the action was checked against the old balances.
      const account = flow.fundsAddress(trader);
      flow.accountChanged(account);
      // Through the relayer, each step is told as it happens (submitted with its id; then the result below).
      const onStep = relayerProgress(wallet, action, hub);
      const done = await moneyAction(flow, trader, { action, marketId, amount, via }, true, onStep).finally(() =>
        flow.accountChanged(account),
      );
      // One notice per transaction sent; through the relayer one for the action, with the relayer's result.
      if (done.relayer)
        hub?.emit('notice', {
          wallet,
          kind: 'info',
          message: `${action}: ${done.lines.join('; ')}, through Polymarket's relayer (no gas)`,
          txHash: done.relayer.transactionHash,
        });
      else
        for (const txHash of done.txHashes)
          hub?.emit('notice', { wallet, kind: 'info', message: `${action}: ${done.lines.join('; ')}`, txHash });
      return { wallet, ...done };
    },
    saveRelayer: (input) => saveRelayerCredentials(flow, wallets, input),
    forgetRelayer: (input) => forgetRelayerCredentials(flow, wallets, input),
  };
}
