// The signer's last guard on what an error may say: any sentence quoting a secret of the request is replaced.
import { describe, expect, it } from 'vitest';
import { WITHHELD, requestSecrets, withholdSecrets } from '../../src/main/wallets/signer-service';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const PHRASE = 'test test test test test test test test test test test junk';

describe('withholding secrets from signer errors', () => {
  it('replaces a sentence that quotes the password, the key (any case, with or without 0x) or two recovery words in a row', () => {
    const secrets = requestSecrets({ password: 'hunter2-hunter2', privateKey: KEY, phrase: PHRASE });
    for (const leak of [
      'bad password hunter2-hunter2',
      `invalid key ${KEY.slice(2).toUpperCase()}`,
      `value="${KEY}"`,
      'the words "test junk" are wrong',
    ]) {
      expect(withholdSecrets(leak, secrets)).toBe(WITHHELD);
    }
  });

  it('lets ordinary sentences through, including ones that share a single word with the phrase', () => {
    const secrets = requestSecrets({ password: 'pw', phrase: 'not a phrase at all' });
    expect(withholdSecrets('The recovery phrase is not a valid BIP-39 mnemonic.', secrets)).toBe(
      'The recovery phrase is not a valid BIP-39 mnemonic.',
    );
    expect(withholdSecrets('invalid password', requestSecrets({ password: 'pw' }))).toBe('invalid password');
  });
});
