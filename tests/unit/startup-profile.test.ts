// Which network profile the desktop app starts on: the flag, the environment, then the data folder's
// profile.json (how a packaged app started from its icon finds its network), else a sentence saying where.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noProfileMessage, startupProfileFile } from '../../src/main/ipc/profile';

const DATA = '/home/trader/.config/pmdesk';
const none = () => false;
const all = () => true;

describe('the desktop app’s starting network profile', () => {
  it('takes --pmdesk-profile first, then PMDESK_PROFILE', () => {
    expect(startupProfileFile(['electron', '.', '--pmdesk-profile=/tmp/a.json'], { PMDESK_PROFILE: '/tmp/b.json' }, DATA, all)).toBe('/tmp/a.json');
    expect(startupProfileFile(['electron', '.'], { PMDESK_PROFILE: '/tmp/b.json' }, DATA, all)).toBe('/tmp/b.json');
  });

  it('falls back to profile.json in the data folder, only when it exists', () => {
    expect(startupProfileFile(['pmdesk'], {}, DATA, (file) => file === join(DATA, 'profile.json'))).toBe(join(DATA, 'profile.json'));
    expect(startupProfileFile(['pmdesk'], {}, DATA, none)).toBeUndefined();
  });

  it('says where a profile can come from when there is none', () => {
    expect(noProfileMessage(DATA)).toContain(join(DATA, 'profile.json'));
    expect(noProfileMessage(DATA)).toContain('--pmdesk-profile=FILE');
  });
});
