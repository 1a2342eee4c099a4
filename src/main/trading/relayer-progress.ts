// A relayed money action's steps as notices every window hears: the wallet being deployed first, and the request
// submitted (with the relayer's id, so `pmdesk relayer tx <id>` can find it). Where it ended is the action's own
// result notice (money-access.ts), so each action adds one notice, not two, to the corner.
import type { RelayStep } from '@pmdesk/toolkit';
import type { EventHub } from '../ipc/event-hub';

export function relayerProgress(
  wallet: string,
  action: string,
  hub: EventHub | undefined,
): ((step: RelayStep) => void) | undefined {
  if (!hub) return undefined;
  return (step) => {
    if (step.step === 'done') return;
    const message =
      step.step === 'deploying'
        ? `${action}: the wallet is not deployed yet; Polymarket's relayer deploys it first`
        : `${action}: submitted to Polymarket's relayer as ${step.submitted.transactionID} (${step.submitted.state})`;
    hub.emit('notice', { wallet, kind: 'info', message });
  };
}
