// A relayed money action's steps as notices every window hears: the wallet being deployed first, the request
// submitted (with the relayer's id, so `pmdesk relayer tx <id>` can find it), and where it ended.
import type { RelayStep } from '@pmdesk/toolkit';
import type { EventHub } from './event-hub';

export function relayerProgress(wallet: string, action: string, hub: EventHub | undefined): ((step: RelayStep) => void) | undefined {
  if (!hub) return undefined;
  return (step) => {
    const message =
      step.step === 'deploying'
        ? `${action}: the wallet is not deployed yet; Polymarket's relayer deploys it first`
        : step.step === 'submitted'
          ? `${action}: submitted to Polymarket's relayer as ${step.submitted.transactionID} (${step.submitted.state})`
          : `${action}: ${step.outcome.summary}`;
    const txHash = step.step === 'submitted' ? step.submitted.transactionHash : step.step === 'done' ? step.outcome.transactionHash : '';
    hub.emit('notice', { wallet, kind: 'info', message, ...(txHash ? { txHash } : {}) });
  };
}
