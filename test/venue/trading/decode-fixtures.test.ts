import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../../src/core/errors.ts';
import {
  decodeApiCredentials,
  decodeCancelResult,
  decodeHeartbeatId,
  decodeHeartbeatStatus,
  decodeOrderPostResult,
  decodeOrderPostResults,
} from '../../../src/venue/decode.ts';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../../../shared/fixtures/venue/${name}`, import.meta.url), 'utf8'));

describe('order results on real payloads', () => {
  it('post_orders.json: accepted with decimal amounts, and a failure with success false', () => {
    const results = decodeOrderPostResults(fixture('post_orders.json'), 3);
    expect(results[0]).toEqual({
      kind: 'accepted',
      orderId: '0xabcdef1234567890abcdef1234567890abcdef12',
      status: 'LIVE',
      // the docs example; real answers are decimals like '9.999999' (units, not base units)
      makingAmount: 100_000_000 * 1_000_000,
      takingAmount: 200_000_000 * 1_000_000,
      tradeIds: [],
      transactionHashes: [],
    });
    expect(results[1]).toMatchObject({ kind: 'accepted', status: 'MATCHED', tradeIds: ['trade-123'], transactionHashes: ['0x1234567890abcdef1234567890abcdef12345678'] });
    expect(results[2]).toEqual({ kind: 'failed', errorMsg: 'Rate limit exceeded for tokenId: 0xdef456abc789...', orderId: undefined, status: 'DELAYED' });
  });

  it('post_orders_nautilus.json: null errorMsg, success true with an empty id, a null id', () => {
    const results = decodeOrderPostResults(fixture('post_orders_nautilus.json'), 3);
    expect(results.map((r) => r.kind)).toEqual(['accepted', 'failed', 'failed']);
    expect(results[0]).toMatchObject({ orderId: '0x' + '1'.repeat(64), status: 'LIVE', makingAmount: 0, takingAmount: 0, tradeIds: ['trade-0x201'] });
    expect(results[1]).toMatchObject({ errorMsg: 'not enough balance / allowance: the balance is not enough' });
    expect(results[2]).toMatchObject({ errorMsg: 'invalid post-only order: order crosses book' });
  });

  it('post_orders_post_only_mode.json: every item failed with empty amounts', () => {
    for (const r of decodeOrderPostResults(fixture('post_orders_post_only_mode.json'), 2)) {
      expect(r).toEqual({ kind: 'failed', errorMsg: 'post-only mode: only post-only orders and cancels are allowed', orderId: undefined, status: undefined });
    }
  });

  it('the single-order answers', () => {
    expect(decodeOrderPostResult(fixture('post_order.json'))).toMatchObject({ kind: 'accepted', status: 'LIVE' });
    expect(decodeOrderPostResult(fixture('post_order_matched.json'))).toMatchObject({ kind: 'accepted', status: 'MATCHED' });
    expect(decodeOrderPostResult(fixture('post_order_nautilus_matched.json'))).toMatchObject({ kind: 'accepted', tradeIds: ['trade-0x001', 'trade-0x002'] });
    expect(decodeOrderPostResult({ success: true, orderID: '0x1', status: 'matched', makingAmount: '9.999999', takingAmount: '14.925372' })).toMatchObject({
      makingAmount: 9_999_999,
      takingAmount: 14_925_372,
    });
  });

  it('a result count other than the items sent, or a bad amount, is a DecodeError naming the field', () => {
    expect(() => decodeOrderPostResults(fixture('post_orders.json'), 2)).toThrow(DecodeError);
    expect(() => decodeOrderPostResult({ success: true, orderID: '0x1', makingAmount: '1.2345678' })).toThrow(/result\.makingAmount/);
  });
});

describe('cancels, heartbeats, API keys on real payloads', () => {
  it('cancel_orders.json', () => {
    expect(decodeCancelResult(fixture('cancel_orders.json'))).toEqual({
      canceled: ['0xabcdef1234567890abcdef1234567890abcdef12', '0xfedcba0987654321fedcba0987654321fedcba09'],
      notCanceled: { '0x1234567890abcdef1234567890abcdef12345678': 'Order already matched' },
    });
  });

  it('heartbeats', () => {
    expect(decodeHeartbeatId(fixture('heartbeat_v1.json'))).toBe('550e8400-e29b-41d4-a716-446655440000');
    expect(decodeHeartbeatStatus(fixture('heartbeat_legacy.json'))).toBe('ok');
    expect(() => decodeHeartbeatId({ heartbeat_id: '' })).toThrow(DecodeError);
  });

  it('api_key.json: the secret and passphrase become Secrets', () => {
    const creds = decodeApiCredentials(fixture('api_key.json'));
    expect(creds.apiKey).toBe('f4f247b7-4ac7-ff29-a152-04fda0a8755a');
    expect(creds.secret.reveal()).toBe('base64-encoded-secret');
    expect(JSON.stringify(creds)).not.toContain('base64-encoded-secret');
    expect(JSON.stringify(creds)).not.toContain('hex-encoded-passphrase');
  });
});
