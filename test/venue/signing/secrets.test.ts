import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Secret } from '../../../src/core/secret.ts';
import { privateKeyToAddress } from '../../../src/venue/signing/address.ts';
import { createL2Signer, type ApiCredentials } from '../../../src/venue/signing/l2-auth.ts';
import { createOrderSigner, type SigningAccount } from '../../../src/venue/signing/order-signer.ts';
import { privateKeyBytes } from '../../../src/venue/signing/private-key.ts';

const KEY_HEX = '5d2b'.repeat(16);
const KEY = '0x' + KEY_HEX;
const SECRET = 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXh5eno=';
const PASSPHRASE = 'f00d'.repeat(16);

const credentials: ApiCredentials = { apiKey: 'key-1', secret: new Secret(SECRET), passphrase: new Secret(PASSPHRASE) };
const account: SigningAccount = { privateKey: new Secret(KEY), signerAddress: '0x0000000000000000000000000000000000000001', signatureType: 0 };

/** Every way a value commonly gets printed. */
function renderings(value: unknown): string[] {
  return [
    JSON.stringify(value),
    inspect(value, { depth: 10, showHidden: true, getters: true }),
    String((value as { secret?: Secret }).secret ?? ''),
    // a template literal is one of the ways under test
    // eslint-disable-next-line @typescript-eslint/restrict-template-expressions
    `${(value as { privateKey?: Secret }).privateKey ?? ''}`,
  ];
}

function expectNoLeak(texts: string[]): void {
  for (const text of texts) {
    expect(text).not.toContain(KEY_HEX);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(PASSPHRASE);
  }
}

describe('secrets never print', () => {
  it('credentials and accounts show *** in JSON, inspect and templates', () => {
    const texts = [...renderings(credentials), ...renderings(account)];
    expectNoLeak(texts);
    expect(JSON.stringify(credentials)).toBe('{"apiKey":"key-1","secret":"***","passphrase":"***"}');
    // eslint-disable-next-line @typescript-eslint/restrict-template-expressions -- a template literal is what is tested
    expect(`${credentials.secret}`).toBe('***');
    expect(inspect(account)).toContain('Secret(***)');
  });

  it('signers hold the key only in closures; a mismatch error does not echo it', () => {
    const signerAddress = privateKeyToAddress(privateKeyBytes(account.privateKey));
    const signer = createOrderSigner({ ...account, signerAddress }, { profile: 'interface' });
    const l2 = createL2Signer(signerAddress, credentials, 'interface');
    expectNoLeak([inspect(signer, { depth: 10, showHidden: true }), JSON.stringify(signer), inspect(l2, { depth: 10, showHidden: true }), JSON.stringify(l2)]);
    let err: unknown;
    try {
      createOrderSigner(account, { profile: 'interface' });
    } catch (e) {
      err = e;
    }
    expect(String(err)).toMatch(/not the address of the private key/);
    expectNoLeak([String(err), inspect(err)]);
  });

  it('errors about malformed keys and secrets do not echo them', () => {
    const badKey = new Secret('0x' + 'zz'.repeat(32));
    let message = '';
    try {
      privateKeyBytes(badKey);
    } catch (err) {
      message = inspect(err);
    }
    expect(message).toContain('privateKey');
    expect(message).not.toContain('zz'.repeat(32));
    let l2Message = '';
    try {
      createL2Signer('0x' + '00'.repeat(20), { ...credentials, secret: new Secret('not*base64') }, 'interface');
    } catch (err) {
      l2Message = inspect(err);
    }
    expect(l2Message).toContain('api secret');
    expect(l2Message).not.toContain('not*base64');
  });
});
