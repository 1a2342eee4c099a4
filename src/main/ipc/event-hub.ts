// Pushes contract events to every connected client (each window in Electron, each tab in browser mode).
// A client that throws while receiving is dropped, never allowed to stop the others from hearing.
import type { EventName, TerminalEvents } from '../../shared/contract';
import type { Logger } from '@pmdesk/toolkit';

export type EventSink = <E extends EventName>(event: E, payload: TerminalEvents[E]) => void;

export class EventHub {
  private readonly sinks = new Map<string, EventSink>();
  private readonly goneListeners = new Set<(clientId: string) => void>();

  constructor(private readonly logger?: Logger) {}

  /**
   * Adds a client; the returned function removes it (and tells whoever holds its subscriptions), unless another
   * client has connected under the same id since: a network switch opens the new network's watchers (`main:alerts`)
   * before the old ones close, and the old ones' leaving must not take the new ones off the hub.
   */
  connect(clientId: string, sink: EventSink): () => void {
    this.sinks.set(clientId, sink);
    return () => {
      if (this.sinks.get(clientId) === sink) this.disconnect(clientId);
    };
  }

  disconnect(clientId: string): void {
    if (!this.sinks.delete(clientId)) return;
    for (const listener of this.goneListeners) listener(clientId);
  }

  /** Told when a client goes away, so its live subscriptions can be released. */
  onClientGone(listener: (clientId: string) => void): () => void {
    this.goneListeners.add(listener);
    return () => this.goneListeners.delete(listener);
  }

  emit<E extends EventName>(event: E, payload: TerminalEvents[E], only?: Iterable<string>): void {
    const targets = only ? [...only] : [...this.sinks.keys()];
    for (const clientId of targets) {
      const sink = this.sinks.get(clientId);
      if (!sink) continue;
      try {
        sink(event, payload);
      } catch {
        this.logger?.warn(`dropping a client that failed to receive ${event}`);
        this.disconnect(clientId);
      }
    }
  }

  get clientCount(): number {
    return this.sinks.size;
  }
}
