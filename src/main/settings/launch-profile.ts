// The network the desktop app opens on: the profile file it was given (a flag, PMDESK_PROFILE, the data
// folder's profile.json), else Polygon on Polymarket's public endpoints — an installed PM Desk opens on real
// markets with no setup; the sandbox and custom networks are a profile or a switch away.
import { readFile } from 'node:fs/promises';
import { invalidParameter } from '@pmdesk/toolkit/model';
import { builtInProfile } from './networks';
import { parseAppProfile, type AppProfile } from './profile';

export interface LaunchProfile {
  /** The profile's JSON as given (contracts included): listed, and switched back to. */
  raw: Record<string, unknown>;
  profile: AppProfile;
}

export async function readLaunchProfile(file: string | undefined): Promise<LaunchProfile> {
  if (file === undefined) {
    const raw = builtInProfile('polygon');
    return { raw, profile: parseAppProfile(raw) };
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw invalidParameter(`Cannot read the network profile ${file}.`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw invalidParameter(`The network profile ${file} is not JSON.`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw invalidParameter(`The network profile ${file} is not a JSON object.`);
  return { raw: raw as Record<string, unknown>, profile: parseAppProfile(raw) };
}
