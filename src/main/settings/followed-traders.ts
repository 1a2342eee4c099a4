// The traders followed on each network, as kept in settings.json: bounded (FOLLOWED_TRADERS_MAX a network, a
// name of at most FOLLOWED_NAME_MAX characters), and cleaned on reading like the workspaces, so one bad entry
// (hand-edited, from a newer version) is dropped on its own instead of setting the whole file aside.
import { z } from 'zod';
import { FOLLOWED_NAME_MAX, FOLLOWED_TRADERS_MAX, type FollowedTraderInfo } from '../../shared/contract';

/** Networks whose followed traders are kept: as many as their workspaces. */
export const FOLLOWED_NETWORKS_MAX = 50;

const FollowedTraderSchema = z.strictObject({
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  name: z.string().max(FOLLOWED_NAME_MAX),
  alert: z.boolean(),
  since: z.number().int().min(0).max(8.64e15),
});

/** One network's list: its valid entries, each address once (the first kept), at most FOLLOWED_TRADERS_MAX. */
export function cleanFollowedTraders(value: unknown): FollowedTraderInfo[] {
  if (!Array.isArray(value)) return [];
  const out: FollowedTraderInfo[] = [];
  for (const entry of value) {
    const parsed = FollowedTraderSchema.safeParse(entry);
    if (!parsed.success) continue;
    if (out.some((t) => t.address.toLowerCase() === parsed.data.address.toLowerCase())) continue;
    out.push(parsed.data);
    if (out.length >= FOLLOWED_TRADERS_MAX) break;
  }
  return out;
}

/** Every network's list, by network name; a network whose list is empty once cleaned is not kept. */
export function cleanFollowedByNetwork(value: unknown): Record<string, FollowedTraderInfo[]> {
  const out: Record<string, FollowedTraderInfo[]> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [network, list] of Object.entries(value)) {
    if (Object.keys(out).length >= FOLLOWED_NETWORKS_MAX) break;
    if (network.length === 0 || network.length > 200) continue;
    const clean = cleanFollowedTraders(list);
    if (clean.length > 0) out[network] = clean;
  }
  return out;
}
