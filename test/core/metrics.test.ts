import { describe, expect, it } from 'vitest';
import { MemoryMetrics, NO_METRICS, quantile } from '../../src/core/metrics.ts';

describe('MemoryMetrics', () => {
  it('counts, sets and observes by name and labels, and reads them back', () => {
    const m = new MemoryMetrics();
    const labels = { code: 'STALE_BOOK' };
    m.inc('clobot_orders_denied_total', labels);
    m.inc('clobot_orders_denied_total', labels, 2);
    m.inc('clobot_orders_denied_total', { code: 'MAX_OPEN_ORDERS' });
    m.set('clobot_open_orders', 7);
    m.set('clobot_open_orders', 3);
    expect(m.value('clobot_orders_denied_total', { code: 'STALE_BOOK' })).toBe(3);
    expect(m.total('clobot_orders_denied_total')).toBe(4);
    expect(m.total('clobot_orders_denied_total', 'code')).toEqual({ STALE_BOOK: 3, MAX_OPEN_ORDERS: 1 });
    expect(m.value('clobot_open_orders')).toBe(3);
    expect(m.value('clobot_never_written_total')).toBe(0);
    const snap = m.snapshot();
    expect(snap.counters).toEqual([
      { name: 'clobot_orders_denied_total', labels: { code: 'MAX_OPEN_ORDERS' }, value: 1 },
      { name: 'clobot_orders_denied_total', labels: { code: 'STALE_BOOK' }, value: 3 },
    ]);
    expect(snap.gauges).toEqual([{ name: 'clobot_open_orders', labels: {}, value: 3 }]);
    // plain data
    expect(JSON.parse(JSON.stringify(snap.counters))).toEqual(snap.counters);
  });

  it('histograms: cumulative buckets, sum, count and quantiles estimated within a bucket', () => {
    const m = new MemoryMetrics({ buckets: { clobot_x_seconds: [0.001, 0.002, 0.004] } });
    for (const v of [0.0005, 0.0015, 0.0015, 0.003, 0.01]) m.observe('clobot_x_seconds', v);
    const h = m.histogram('clobot_x_seconds')!;
    expect(h.count).toBe(5);
    expect(h.sum).toBeCloseTo(0.0165, 12);
    expect(h.buckets).toEqual([
      { le: 0.001, count: 1 },
      { le: 0.002, count: 3 },
      { le: 0.004, count: 4 },
      { le: Infinity, count: 5 },
    ]);
    // rank 2.5 of 5 falls in (0.001, 0.002], 1.5 of its 2 observations: 0.001 + 0.001 * 0.75
    expect(h.quantiles.p50).toBeCloseTo(0.00175, 12);
    // rank 4.95 falls in +Inf: the highest finite bound
    expect(h.quantiles.p99).toBe(0.004);
    expect(quantile({ bounds: [1], counts: [0, 0], count: 0 }, 0.5)).toBeUndefined();
    expect(m.histogram('clobot_y_seconds')).toBeUndefined();
  });

  it('refuses names and labels outside the conventions, and ids as label values', () => {
    const m = new MemoryMetrics();
    expect(() => m.inc('clobot_orders')).toThrow(/must end in _total/);
    expect(() => m.set('clobot_orders_total', 1)).toThrow(/must not end in _total/);
    expect(() => m.inc('clobot-bad_total')).toThrow(/not a Prometheus name/);
    expect(() => m.inc('clobot_x_total', { 'bad-label': 'a' })).toThrow(/not a Prometheus label/);
    expect(() => m.inc('clobot_x_total', { order: '0x' + 'ab'.repeat(32) })).toThrow(/ids never go in labels/);
    expect(() => m.inc('clobot_x_total', { wallet: '0x' + '12'.repeat(20) })).toThrow(/ids never go in labels/);
    expect(() => m.inc('clobot_x_total', { client: 'feedf00d' + '0'.repeat(23) + '1' })).toThrow(/ids never go in labels/);
    expect(() => m.inc('clobot_y_total', undefined, -1)).toThrow(/only grows/);
    m.inc('clobot_z_total');
    expect(() => m.observe('clobot_z_total', 1)).toThrow(/is a counter/);
    NO_METRICS.inc('anything');
  });

  it('collectors read counts kept elsewhere into the sink when it is read', () => {
    const m = new MemoryMetrics();
    const kept = { attempts: 0 };
    m.collect((sink) => {
      sink.total('clobot_http_requests_total', kept.attempts);
      sink.set('clobot_connections', 2);
    });
    kept.attempts = 5;
    expect(m.value('clobot_http_requests_total')).toBe(5);
    kept.attempts = 9;
    expect(m.snapshot().counters).toEqual([{ name: 'clobot_http_requests_total', labels: {}, value: 9 }]);
    expect(m.value('clobot_connections')).toBe(2);
  });
});
