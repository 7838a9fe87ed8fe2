import { describe, expect, it } from 'vitest';
import { MemoryMetrics } from '../../src/core/metrics.ts';
import { ENGINE_METRICS } from '../../src/engine/engine-metrics.ts';
import { BUILD_INFO, PrometheusExporter } from '../../src/telemetry/prometheus.ts';
import { parsePrometheus, valueOf } from './prometheus-text.ts';

/**
 * Issue 23 point 4: the Prometheus exporter mirrors the run's MemoryMetrics through prom-client,
 * checked by parsing its text with a Prometheus text-format parser: counters, gauges, histograms
 * (same buckets), collectors' totals handed over as differences, label sets fitted to the first
 * write, the build info and the process metrics; an id in a label is refused before it reaches it.
 */

describe('PrometheusExporter', () => {
  it('mirrors every write of the run\'s metrics, and the collectors\' totals at each scrape', async () => {
    const memory = new MemoryMetrics();
    memory.set(ENGINE_METRICS.halted, 0, { halt: 'manual' });
    let polled = 3;
    memory.collect((m) => m.total('clobot_fill_polls_total', polled));
    const exporter = new PrometheusExporter({ metrics: memory, build: { version: '9.9.9', mode: 'paper' } });
    memory.inc(ENGINE_METRICS.submitted, undefined, 4);
    memory.inc(ENGINE_METRICS.denied, { code: 'TRADING_HALTED' });
    memory.inc(ENGINE_METRICS.denied, { code: 'TRADING_HALTED' });
    memory.inc(ENGINE_METRICS.fills, { liquidity: 'maker' });
    memory.observe(ENGINE_METRICS.tickToTrade, 0.0004);
    memory.observe(ENGINE_METRICS.tickToTrade, 0.02);
    memory.observe(ENGINE_METRICS.batchSize, 15);

    let f = parsePrometheus(await exporter.text());
    expect(f.get(ENGINE_METRICS.submitted)).toMatchObject({ type: 'COUNTER', metrics: [{ value: '4' }] });
    expect(valueOf(f, ENGINE_METRICS.denied, { code: 'TRADING_HALTED' })).toBe(2);
    expect(valueOf(f, ENGINE_METRICS.halted, { halt: 'manual' })).toBe(0);
    expect(valueOf(f, 'clobot_fill_polls_total')).toBe(3);
    const ttt = f.get(ENGINE_METRICS.tickToTrade)!;
    expect(ttt.type).toBe('HISTOGRAM');
    expect(ttt.metrics[0]).toMatchObject({ count: '2', buckets: { '0.0005': '1', '0.025': '2' } });
    expect(f.get(ENGINE_METRICS.batchSize)!.metrics[0]!.buckets).toMatchObject({ '15': '1' });
    expect(f.get(BUILD_INFO)!.metrics[0]).toMatchObject({ labels: { version: '9.9.9', mode: 'paper', node: process.version }, value: '1' });
    expect(f.has('nodejs_eventloop_lag_seconds')).toBe(true);
    expect(f.has('process_cpu_user_seconds_total')).toBe(true);

    // a collector's total grows: the difference is added; counted from zero again: a reset
    polled = 10;
    f = parsePrometheus(await exporter.text());
    expect(valueOf(f, 'clobot_fill_polls_total')).toBe(10);
    polled = 2;
    f = parsePrometheus(await exporter.text());
    expect(valueOf(f, 'clobot_fill_polls_total')).toBe(2);
  });

  it('fits a later write\'s labels to the first write\'s set, and never sees an id in a label (the run\'s metrics refuse it)', async () => {
    const memory = new MemoryMetrics();
    const exporter = new PrometheusExporter({ metrics: memory, processMetrics: false });
    memory.set(ENGINE_METRICS.strategyValue, 1.5, { strategy: 'mm', name: 'edge' });
    memory.set(ENGINE_METRICS.strategyValue, 2, { strategy: 'mm' });
    expect(() => memory.inc(ENGINE_METRICS.canceled, { order: '0x' + 'ab'.repeat(32) })).toThrow(/looks like an id/);
    const f = parsePrometheus(await exporter.text());
    expect(f.get(ENGINE_METRICS.strategyValue)!.metrics.map((m) => m.labels)).toEqual([
      { name: 'edge', strategy: 'mm' },
      { name: '', strategy: 'mm' },
    ]);
    expect(f.has(ENGINE_METRICS.canceled)).toBe(false);
    expect(f.has('nodejs_eventloop_lag_seconds')).toBe(false);
    expect(() => memory.mirror(new PrometheusExporter({ processMetrics: false }))).toThrow(/already mirrored/);
  });
});
