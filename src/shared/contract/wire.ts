// How calls and events travel: Electron's IPC channel names, and the browser mode's JSON over the /bridge WebSocket.
import type { Result } from './result';
import type { OperationName } from './operations';
import type { EventName } from './events';

/** Channel names on Electron's IPC: one per operation, one for pushed events. */
export const IPC_CHANNEL_PREFIX = 'terminal:';
export const IPC_EVENT_CHANNEL = 'terminal-event';
export const ipcChannel = (operation: OperationName): string => `${IPC_CHANNEL_PREFIX}${operation}`;

export interface BridgeRequest {
  id: number;
  op: string;
  input: unknown;
}
export type BridgeMessage = { id: number; result: Result<unknown> } | { event: EventName; payload: unknown };
/**
 * What one WebSocket frame from the host carries: a message, or several in order (events pushed in the same few
 * milliseconds travel together, so a busy book costs the page one decode per batch, not per update).
 */
export type BridgeFrame = BridgeMessage | BridgeMessage[];
export const BRIDGE_PATH = '/bridge';
