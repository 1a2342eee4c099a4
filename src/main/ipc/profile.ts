// The network profile the app's services read (what the sandbox writes, or a file given with --profile):
// URLs, chain and order version. Test wallets' keys in a sandbox profile are ignored here on purpose.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { invalidParameter } from '../../shared/errors';
import type { NetworkInfo } from '../../shared/contract';

const url = z.string().url();
const ProfileSchema = z.object({
  name: z.string().min(1).default('custom'),
  chainId: z.number().int().positive(),
  orderVersion: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
  rpcUrl: z.union([url, z.literal('')]).optional(),
  clobUrl: z.union([url, z.literal('')]).default(''),
  aggregatorUrl: url,
  sseUrl: z.union([url, z.literal('')]).optional(),
  /** The exchange's WebSocket base (`…/ws`): books follow its market channel when given, else the aggregator is polled. */
  wsUrl: z.union([url, z.literal('')]).optional(),
});

export type AppProfile = z.infer<typeof ProfileSchema>;

export function parseAppProfile(value: unknown): AppProfile {
  const parsed = ProfileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidParameter(`Invalid network profile: ${issue.path.join('.') || 'profile'}: ${issue.message}`);
  }
  return parsed.data;
}

export async function readAppProfile(file: string): Promise<AppProfile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw invalidParameter(`Cannot read the network profile ${file}.`);
  }
  try {
    return parseAppProfile(JSON.parse(text));
  } catch (error) {
    if (error instanceof SyntaxError) throw invalidParameter(`The network profile ${file} is not JSON.`);
    throw error;
  }
}

export function networkInfo(profile: AppProfile, shell: NetworkInfo['shell']): NetworkInfo {
  return {
    name: profile.name,
    chainId: profile.chainId,
    orderVersion: profile.orderVersion ?? null,
    clobUrl: profile.clobUrl,
    aggregatorUrl: profile.aggregatorUrl,
    sandbox: profile.name === 'sandbox' || (profile.chainId !== 137 && profile.chainId !== 80002 && /^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(profile.aggregatorUrl)),
    shell,
  };
}

/**
 * Which network profile a desktop start uses: `--pmdesk-profile=FILE`, else `PMDESK_PROFILE`, else
 * `<data dir>/profile.json` when it exists (a packaged app started from its icon has neither of the first two).
 * Undefined when there is none: the app then says where to put one.
 */
export function startupProfileFile(argv: readonly string[], env: Record<string, string | undefined>, dataDir: string, exists: (file: string) => boolean): string | undefined {
  const flag = argv.find((a) => a.startsWith('--pmdesk-profile='));
  if (flag) return flag.slice('--pmdesk-profile='.length);
  if (env.PMDESK_PROFILE) return env.PMDESK_PROFILE;
  const inDataDir = join(dataDir, 'profile.json');
  return exists(inDataDir) ? inDataDir : undefined;
}

/** What the desktop app says when it has no network profile to start with. */
export const noProfileMessage = (dataDir: string): string =>
  `PM Desk has no network to start on. Start it with \`npm start\` (the local sandbox), pass --pmdesk-profile=FILE, set PMDESK_PROFILE, or put a network profile at ${join(dataDir, 'profile.json')}.`;
