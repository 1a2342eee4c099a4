// Polymarket's geoblock check (docs/protocol.md#geoblock): `GET /api/geoblock` answers where the caller seems to be and
// whether trading is blocked there. The sandbox answers from a switch (not blocked unless told), so a client's
// blocked and close-only paths can be tested without leaving the machine.

/** What the switch sets: blocked or not, and the country (ISO 3166-1 alpha-2) and region reported. */
export interface GeoblockState {
  blocked: boolean;
  country: string;
  region: string;
}

export const GEOBLOCK_PATH = '/api/geoblock';
export const NOT_BLOCKED: GeoblockState = { blocked: false, country: 'IE', region: 'L' };

/** `US-NY` → US, NY; `US` → US with no region (the CLI's `--geoblocked` value). */
export function parseGeoblockedRegion(value: string): GeoblockState | undefined {
  const match = /^([A-Za-z]{2})(?:-([A-Za-z0-9]{1,3}))?$/.exec(value.trim());
  if (!match) return undefined;
  return { blocked: true, country: match[1]!.toUpperCase(), region: (match[2] ?? '').toUpperCase() };
}

export function geoblockJson(state: GeoblockState) {
  // Every request reaches the sandbox from the loopback interface.
  return { blocked: state.blocked, ip: '127.0.0.1', country: state.country, region: state.region };
}
