// The conversion operations over the order flow: a wallet named by its label converts as its Polymarket account on
// this network; money moves, so orders made ready before it are checked again, and every window hears each
// transaction sent (through the relayer: one notice, with its steps as they happen).
import type { ConvertService } from '../ipc/convert-service';
import type { EventHub } from '../ipc/event-hub';
import { conversion, conversionChoices, previewOf } from './convert';
import type { TradingService as OrderFlow } from './service';
import { tradingWalletNamed, type TradingWallets } from './trading-access';
import { relayerProgress } from './relayer-progress';

export function convertAccess(flow: OrderFlow, wallets: TradingWallets, hub?: EventHub): ConvertService {
  return {
    choices: async ({ wallet, eventId }) => ({
      wallet,
      ...(await conversionChoices(flow, await tradingWalletNamed(wallets, wallet), eventId)),
    }),
    preview: async ({ wallet, ...input }) => ({
      wallet,
      ...previewOf(await conversion(flow, await tradingWalletNamed(wallets, wallet), input, false)),
    }),
    run: async ({ wallet, ...input }) => {
      const trader = await tradingWalletNamed(wallets, wallet);
      const account = flow.fundsAddress(trader);
      flow.accountChanged(account);
      const onStep = relayerProgress(wallet, 'convert', hub);
      const done = await conversion(flow, trader, input, true, onStep).finally(() => flow.accountChanged(account));
      const said = `convert: ${done.lines.join('; ')}`;
      if (done.relayer)
        hub?.emit('notice', {
          wallet,
          kind: 'info',
          message: `${said}, through Polymarket's relayer (no gas)`,
          txHash: done.relayer.transactionHash,
        });
      else for (const txHash of done.txHashes) hub?.emit('notice', { wallet, kind: 'info', message: said, txHash });
      return { wallet, ...done };
    },
  };
}
