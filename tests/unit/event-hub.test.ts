// The event hub's clients: a client's leaving takes off that client only, never a later one under the same id
// (a network switch opens the new network's `main:alerts` before the old one closes).
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../src/main/ipc/event-hub';
import type { TerminalEvents } from '../../src/shared/contract';

const lock: TerminalEvents['walletLock'] = {
  address: '0x0000000000000000000000000000000000000001',
  locked: false,
  reason: 'unlock',
};

describe('the event hub', () => {
  it("an old client's leave leaves a newer client of the same id connected, and tells nobody it went", () => {
    const hub = new EventHub();
    const gone: string[] = [];
    hub.onClientGone((id) => gone.push(id));
    const heardByOld: string[] = [];
    const heardByNew: string[] = [];
    const leaveOld = hub.connect('main:alerts', (event) => heardByOld.push(event));
    const leaveNew = hub.connect('main:alerts', (event) => heardByNew.push(event));
    leaveOld();
    expect(gone).toEqual([]);
    hub.emit('walletLock', lock);
    expect(heardByNew).toEqual(['walletLock']);
    expect(heardByOld).toEqual([]);
    leaveNew();
    expect(gone).toEqual(['main:alerts']);
    expect(hub.clientCount).toBe(0);
  });

  it('disconnect by id still removes whoever holds the id', () => {
    const hub = new EventHub();
    hub.connect('window:1', () => undefined);
    hub.disconnect('window:1');
    expect(hub.clientCount).toBe(0);
  });
});
