// Where wallets live, and what the store accepts as a label or a keystore, before any file is touched.
import { describe, expect, it } from 'vitest';
import { defaultDataDir, resolveDataDir, walletsDir } from '../../src/main/wallets/data-dir';
import { checkLabel, parseKeystore, portableKeystore } from '../../src/main/wallets/wallet-store';
import { isTempFileName } from '../../src/main/wallets/atomic-file';

// A keystore in v3 shape (zeros for ciphertext and MAC: only its structure is read here).
const KEYSTORE = {
  address: '7e5f4552091a69125d5dfcb7b8c2659029395bdf',
  id: '5b7ec0c6-4b8e-4ef3-8c5e-6e3b1c0c9f10',
  version: 3,
  Crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '00000000000000000000000000000000' },
    ciphertext: '00'.repeat(32),
    kdf: 'scrypt',
    kdfparams: { salt: '00'.repeat(32), n: 1024, dklen: 32, p: 1, r: 8 },
    mac: '00'.repeat(32),
  },
};

describe('the data folder', () => {
  it('is --data-dir, else PMDESK_DATA_DIR, else the per-OS user data folder of the app "pmdesk"', () => {
    expect(resolveDataDir({ flag: '/tmp/a', env: { PMDESK_DATA_DIR: '/tmp/b' } })).toBe('/tmp/a');
    expect(resolveDataDir({ env: { PMDESK_DATA_DIR: '/tmp/b' } })).toBe('/tmp/b');
    expect(resolveDataDir({ env: {}, platform: 'linux', home: '/home/t' })).toBe('/home/t/.config/pmdesk');
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/xdg' }, '/home/t')).toBe('/xdg/pmdesk');
    expect(defaultDataDir('darwin', {}, '/Users/t')).toBe('/Users/t/Library/Application Support/pmdesk');
    expect(defaultDataDir('win32', { APPDATA: 'C:/Users/t/AppData/Roaming' }, 'C:/Users/t')).toMatch(/Roaming.pmdesk$/);
    expect(walletsDir('/d')).toBe('/d/wallets');
  });
});

describe('labels and keystores', () => {
  it('trims labels, and refuses empty, over-long and control-character labels', () => {
    expect(checkLabel('  trading  ')).toBe('trading');
    expect(() => checkLabel('')).toThrow('1 to 64 characters');
    expect(() => checkLabel('x'.repeat(65))).toThrow('1 to 64 characters');
    expect(() => checkLabel('a\nb')).toThrow('control characters');
    expect(() => checkLabel(undefined)).toThrow('label is required');
  });

  it('reads a v3 keystore and checksums its address', () => {
    expect(parseKeystore(JSON.stringify(KEYSTORE)).address).toBe('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
  });

  it('says "invalid JSON wallet" for anything that is not a v3 keystore, including a crafted scrypt cost', () => {
    const broken = [
      'not json',
      '[]',
      JSON.stringify({ ...KEYSTORE, version: 1 }),
      JSON.stringify({ ...KEYSTORE, Crypto: undefined }),
      JSON.stringify({ ...KEYSTORE, address: 'nope' }),
      JSON.stringify({ ...KEYSTORE, Crypto: { ...KEYSTORE.Crypto, cipher: 'aes-256-gcm' } }),
      JSON.stringify({
        ...KEYSTORE,
        Crypto: { ...KEYSTORE.Crypto, kdfparams: { ...KEYSTORE.Crypto.kdfparams, n: 2 ** 24 } },
      }),
      JSON.stringify({
        ...KEYSTORE,
        Crypto: { ...KEYSTORE.Crypto, kdfparams: { ...KEYSTORE.Crypto.kdfparams, n: 1000 } },
      }),
    ];
    for (const text of broken)
      expect(() => parseKeystore(text), text.slice(0, 40)).toThrow(/^\[ERR_INVALID_PARAM\] invalid JSON wallet$/);
  });

  it('exports without our label and with the standard lowercase address', () => {
    const exported = JSON.parse(portableKeystore(JSON.stringify({ label: 'mine', ...KEYSTORE })));
    expect(exported.label).toBeUndefined();
    expect(exported.address).toBe(KEYSTORE.address);
    expect(exported.Crypto).toEqual(KEYSTORE.Crypto);
  });

  it('never takes a temp file for a wallet', () => {
    expect(isTempFileName('.5b7ec0c6-4b8e-4ef3-8c5e-6e3b1c0c9f10.json.a1b2c3.tmp')).toBe(true);
    expect(isTempFileName('5b7ec0c6-4b8e-4ef3-8c5e-6e3b1c0c9f10.json')).toBe(false);
  });
});
