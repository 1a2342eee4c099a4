// The trader profile being looked at: whose (an address typed, pasted, or opened from the tape, a discussion or
// a position), and what the market-data source said of them: profile and stats, positions, recent activity.
// Every answer is kept under the address it was asked for, and the moment the address changes all of it is
// dropped, so a result never shows under an address it is not about; an answer that comes back for an address
// no longer shown is thrown away.
import { create } from 'zustand';
import type { Trader, TraderActivity, TraderPosition } from '@pmdesk/toolkit/model';
import { TerminalError, ask, messageOf } from '../bridge/terminal';

export const TRADER_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** One read of the profile: asked and not answered yet, answered, or failed with main's sentence. */
export type Read<T> =
  | { state: 'loading' }
  | { state: 'done'; value: T }
  | { state: 'failed'; message: string; /** The source has no such read at all (not a failure). */ unavailable?: true };

export interface ProfileState {
  /** The address as typed or opened (may be partial or wrong while the trader types). */
  address: string;
  /** A display name known from where the profile was opened (the tape's name, a comment's author). */
  knownName: string | null;
  /** Why the typed address cannot be looked up ("0x and 40 hex digits"), or null when it can (or is empty). */
  invalid: string | null;
  /** The address the reads below are about: null when nothing has been read for the current address. */
  loadedFor: string | null;
  trader: Read<Trader> | null;
  positions: Read<TraderPosition[]> | null;
  activity: Read<TraderActivity[]> | null;
  /** Bumped by each openTraderProfile, so the account panel brings the profile into view. */
  opened: number;
}

const EMPTY = { invalid: null, loadedFor: null, trader: null, positions: null, activity: null } as const;

export const useProfile = create<ProfileState>()(() => ({ address: '', knownName: null, ...EMPTY, opened: 0 }));

/** Activity rows asked for: enough for a screenful and a scroll, one page of the Data API. */
export const ACTIVITY_LIMIT = 100;

/** Why an address cannot be looked up, in a sentence; null for a well-formed one or an empty box. */
export function addressProblem(address: string): string | null {
  const trimmed = address.trim();
  if (!trimmed) return null;
  return TRADER_ADDRESS.test(trimmed) ? null : 'An address is 0x and 40 hex digits.';
}

/** The three reads for one address; each lands only if the profile still shows that address. */
function load(address: string): void {
  useProfile.setState({
    loadedFor: address,
    trader: { state: 'loading' },
    positions: { state: 'loading' },
    activity: { state: 'loading' },
  });
  const land = <K extends 'trader' | 'positions' | 'activity'>(key: K, read: Promise<unknown>) => {
    read.then(
      (value) =>
        useProfile.getState().loadedFor === address &&
        useProfile.setState({ [key]: { state: 'done', value } } as Partial<ProfileState>),
      (error: unknown) =>
        useProfile.getState().loadedFor === address &&
        useProfile.setState({
          [key]: {
            state: 'failed',
            message: messageOf(error),
            ...(error instanceof TerminalError && error.code === 'ERR_NOT_AVAILABLE' ? { unavailable: true } : {}),
          },
        } as Partial<ProfileState>),
    );
  };
  land('trader', ask('getTrader', { protocol: 'polymarket', address }));
  land('positions', ask('getTraderPositions', { protocol: 'polymarket', address }));
  land('activity', ask('getTraderActivity', { address, limit: ACTIVITY_LIMIT }));
}

/**
 * The lookup box changed: everything shown is dropped at once; a well-formed address is read straight away
 * (a pasted address needs no extra click), a wrong one says why.
 */
export function setProfileAddress(address: string): void {
  const trimmed = address.trim();
  const state = useProfile.getState();
  if (address === state.address) return;
  const same = trimmed.toLowerCase() === state.loadedFor?.toLowerCase();
  useProfile.setState({
    address,
    knownName: same ? state.knownName : null,
    ...(same ? {} : EMPTY),
    invalid: addressProblem(address),
  });
  if (!same && TRADER_ADDRESS.test(trimmed)) load(trimmed);
}

/** Reads the shown address again (the Look up button, or after a failure). */
export function reloadProfile(): void {
  const trimmed = useProfile.getState().address.trim();
  if (TRADER_ADDRESS.test(trimmed)) load(trimmed);
}

/** Opens a trader's profile (from the tape, a discussion, a position): the account panel shows it. */
export function openTraderProfile(address: string, name?: string): void {
  const trimmed = address.trim();
  useProfile.setState((s) => ({
    address: trimmed,
    knownName: name?.trim() || null,
    ...EMPTY,
    invalid: addressProblem(trimmed),
    opened: s.opened + 1,
  }));
  if (TRADER_ADDRESS.test(trimmed)) load(trimmed);
}
