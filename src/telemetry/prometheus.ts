import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { DEFAULT_BUCKETS, type MemoryMetrics, type MetricLabels, type MetricsMirror } from '../core/metrics.ts';
import { BATCH_SIZE_BUCKETS, ENGINE_METRICS } from '../engine/engine-metrics.ts';
import { metricHelp } from './metric-help.ts';

/** The content type of the text `text()` answers (Prometheus text format 0.0.4). */
export const PROMETHEUS_CONTENT_TYPE: string = Registry.PROMETHEUS_CONTENT_TYPE;

/** The name of the build-info gauge: 1, labelled with the version and the Node version. */
export const BUILD_INFO = 'clobot_build_info';

export interface PrometheusExporterOptions {
  /** The run's metrics: mirrored from now on (MemoryMetrics.mirror), refreshed before each scrape. */
  readonly metrics?: MemoryMetrics;
  /** Labels of `clobot_build_info` (the package's version, the run's mode, ...). */
  readonly build?: Readonly<Record<string, string>>;
  /** prom-client's default process metrics (CPU, memory, event-loop lag, GC): default true. */
  readonly processMetrics?: boolean;
  /** Histogram upper bounds per name (default DEFAULT_BUCKETS, the order-batch sizes 1 to 15). */
  readonly buckets?: Readonly<Record<string, readonly number[]>>;
}

type Metric = { readonly kind: 'counter'; readonly m: Counter } | { readonly kind: 'gauge'; readonly m: Gauge } | { readonly kind: 'histogram'; readonly m: Histogram };

interface Family {
  readonly metric: Metric;
  /** The label names, fixed by the first write (Prometheus needs one set per name). */
  readonly labelNames: readonly string[];
  /** Each labels object of the writers made into this family's label set once (missing ones empty, others dropped). */
  readonly normal: WeakMap<MetricLabels, Record<string, string>>;
}

const NO_LABELS: Record<string, string> = Object.freeze({});

/**
 * The run's metrics in Prometheus's text format, through prom-client (issue 23 point 4): an
 * adapter of the MetricsSink port that mirrors the run's MemoryMetrics (every write, after its
 * checks: names, kinds, no order id or address in a label), plus the build info and prom-client's
 * default process metrics. Port-independent: `text()` and `contentType` are what an HTTP server
 * answers on `/metrics` (the control server mounts it; src/telemetry/metrics-server.ts is the
 * small standalone one). Its writes never throw into the engine: a name's label set is fixed by
 * its first write, and a later write's labels are fitted to it.
 */
export class PrometheusExporter implements MetricsMirror {
  readonly registry = new Registry();
  readonly contentType = PROMETHEUS_CONTENT_TYPE;
  readonly #families = new Map<string, Family>();
  readonly #buckets: Readonly<Record<string, readonly number[]>>;
  /** Counter totals last handed over by collectors, by series (prom-client counters only grow). */
  readonly #totals = new Map<string, number>();
  readonly #source: MemoryMetrics | undefined;

  constructor(options: PrometheusExporterOptions = {}) {
    this.#buckets = { [ENGINE_METRICS.batchSize]: BATCH_SIZE_BUCKETS, ...options.buckets };
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    const build = { node: process.version, ...options.build };
    const info = new Gauge({ name: BUILD_INFO, help: metricHelp(BUILD_INFO), labelNames: Object.keys(build), registers: [this.registry] });
    info.set(build, 1);
    this.#source = options.metrics;
    options.metrics?.mirror(this);
  }

  inc(name: string, labels?: MetricLabels, by = 1): void {
    const f = this.#family(name, 'counter', labels);
    if (f.metric.kind === 'counter') f.metric.m.inc(this.#labels(f, labels), by);
  }

  set(name: string, value: number, labels?: MetricLabels): void {
    const f = this.#family(name, 'gauge', labels);
    if (f.metric.kind === 'gauge') f.metric.m.set(this.#labels(f, labels), value);
  }

  observe(name: string, value: number, labels?: MetricLabels): void {
    const f = this.#family(name, 'histogram', labels);
    if (f.metric.kind === 'histogram') f.metric.m.observe(this.#labels(f, labels), value);
  }

  /** A counter's total counted elsewhere: the difference since the last one is added. */
  total(name: string, value: number, labels?: MetricLabels): void {
    const f = this.#family(name, 'counter', labels);
    if (f.metric.kind !== 'counter') return;
    const fitted = this.#labels(f, labels);
    const key = `${name}${JSON.stringify(fitted)}`;
    const last = this.#totals.get(key) ?? 0;
    this.#totals.set(key, value);
    if (value > last) f.metric.m.inc(fitted, value - last);
    else if (value < last) {
      // counted from zero again elsewhere: the series starts again (Prometheus sees a reset)
      f.metric.m.remove(fitted);
      if (value > 0) f.metric.m.inc(fitted, value);
    }
  }

  /** The metrics now, in the text format (the run's collectors run first). */
  async text(): Promise<string> {
    this.#source?.refresh();
    return this.registry.metrics();
  }

  #family(name: string, kind: Metric['kind'], labels: MetricLabels | undefined): Family {
    let f = this.#families.get(name);
    if (f !== undefined) return f;
    const labelNames = labels === undefined ? [] : Object.keys(labels).sort();
    const config = { name, help: metricHelp(name), labelNames, registers: [this.registry] };
    const metric: Metric =
      kind === 'counter'
        ? { kind, m: new Counter(config) }
        : kind === 'gauge'
          ? { kind, m: new Gauge(config) }
          : { kind, m: new Histogram({ ...config, buckets: [...(this.#buckets[name] ?? DEFAULT_BUCKETS)] }) };
    f = { metric, labelNames, normal: new WeakMap() };
    this.#families.set(name, f);
    return f;
  }

  #labels(f: Family, labels: MetricLabels | undefined): Record<string, string> {
    if (labels === undefined) return f.labelNames.length === 0 ? NO_LABELS : fit(f.labelNames, {});
    let fitted = f.normal.get(labels);
    if (fitted === undefined) {
      fitted = fit(f.labelNames, labels);
      f.normal.set(labels, fitted);
    }
    return fitted;
  }
}

function fit(names: readonly string[], labels: MetricLabels): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) out[n] = labels[n] ?? '';
  return out;
}
