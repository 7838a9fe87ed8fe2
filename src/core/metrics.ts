/**
 * The metrics port: what the parts of a run count, set and time, by name. Names follow
 * Prometheus's conventions: a `clobot_` prefix, base units (`_seconds`, never ms), counters end in
 * `_total`. Labels are for small closed sets (a deny code, an outcome, a route): never an order
 * id, a trade id or a wallet address (MemoryMetrics refuses values shaped like one).
 */
export type MetricLabels = Readonly<Record<string, string>>;

export interface MetricsSink {
  /** Adds `by` (default 1, never negative) to a counter. */
  inc(name: string, labels?: MetricLabels, by?: number): void;
  /** Sets a gauge. */
  set(name: string, value: number, labels?: MetricLabels): void;
  /** Records one observation of a histogram (seconds for a time). */
  observe(name: string, value: number, labels?: MetricLabels): void;
}

/** A sink that keeps nothing (a part built without a run's metrics). */
export const NO_METRICS: MetricsSink = Object.freeze({
  inc() {},
  set() {},
  observe() {},
});

/** Upper bounds of the default histogram buckets, in seconds: 50 µs to 10 s (order path to slow HTTP). */
export const DEFAULT_BUCKETS: readonly number[] = [
  0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

export type MetricKind = 'counter' | 'gauge' | 'histogram';

export interface MetricSample {
  readonly name: string;
  readonly labels: MetricLabels;
  readonly value: number;
}

export interface HistogramSample {
  readonly name: string;
  readonly labels: MetricLabels;
  readonly count: number;
  readonly sum: number;
  /** Cumulative counts: observations at or below `le` (the last bucket is +Inf). */
  readonly buckets: readonly { readonly le: number; readonly count: number }[];
  /** Estimated from the buckets as Prometheus's histogram_quantile does (undefined without observations). */
  readonly quantiles: { readonly p50: number | undefined; readonly p90: number | undefined; readonly p99: number | undefined };
}

/** What a MemoryMetrics holds at one moment (plain data, JSON as is). */
export interface MetricsSnapshot {
  readonly counters: readonly MetricSample[];
  readonly gauges: readonly MetricSample[];
  readonly histograms: readonly HistogramSample[];
}

/** Writes the current values of counts kept elsewhere (a collector, see MemoryMetrics.collect). */
export interface MetricsCollectorSink {
  /** Sets a counter to a total counted elsewhere (it only grows there). */
  total(name: string, value: number, labels?: MetricLabels): void;
  set(name: string, value: number, labels?: MetricLabels): void;
}

/** A second sink that hears every write of a MemoryMetrics, checked already (MemoryMetrics.mirror): an exporter. */
export type MetricsMirror = MetricsSink & MetricsCollectorSink;

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
/** Label values shaped like an address, a hash or one of our client order ids (24+ hex digits). */
const ID_LIKE = /^(0x)?[0-9a-fA-F]{24,}$/;
const NO_LABELS: MetricLabels = Object.freeze({});

interface Series {
  readonly name: string;
  readonly labels: MetricLabels;
  readonly kind: MetricKind;
  value: number;
}

interface Histogram {
  readonly name: string;
  readonly labels: MetricLabels;
  readonly bounds: readonly number[];
  /** Per bucket (not cumulative); the last one is +Inf. */
  readonly counts: Float64Array;
  count: number;
  sum: number;
}

/**
 * The in-memory sink: counters, gauges and histograms (fixed buckets, quantiles estimated from
 * them) by name and labels, read back by `value`, `total`, `histogram` and `snapshot`. Writes are
 * a map lookup and an add: a series is made once, the first time its name and labels are seen
 * (label objects are keyed once each, so a constant labels object costs no string per call).
 * Counts kept elsewhere (a transport's, a signer's) are read in by collectors when it is read.
 */
export class MemoryMetrics implements MetricsSink {
  readonly #series = new Map<string, Series>();
  readonly #histograms = new Map<string, Histogram>();
  readonly #kinds = new Map<string, MetricKind>();
  readonly #keys = new WeakMap<MetricLabels, string>();
  readonly #buckets: Readonly<Record<string, readonly number[]>>;
  readonly #collectors: ((sink: MetricsCollectorSink) => void)[] = [];
  #mirror: MetricsMirror | undefined;

  /** `buckets`: upper bounds per histogram name (default DEFAULT_BUCKETS). */
  constructor(options: { readonly buckets?: Readonly<Record<string, readonly number[]>> } = {}) {
    this.#buckets = options.buckets ?? {};
  }

  inc(name: string, labels?: MetricLabels, by = 1): void {
    if (!(by >= 0)) throw new RangeError(`metric ${name}: a counter only grows (inc by ${by})`);
    this.#get(name, labels, 'counter').value += by;
    this.#mirror?.inc(name, labels, by);
  }

  set(name: string, value: number, labels?: MetricLabels): void {
    this.#get(name, labels, 'gauge').value = value;
    this.#mirror?.set(name, value, labels);
  }

  /**
   * Writes everything written from now on to `sink` as well, after this sink's checks (names,
   * kinds, no id in a label), and the collectors' values whenever they run; the counters and
   * gauges written so far are handed over at once (observations made before are not: mirror
   * before the run starts). One mirror: the run's exporter (src/telemetry/prometheus.ts).
   */
  mirror(sink: MetricsMirror): void {
    if (this.#mirror !== undefined) throw new Error('MemoryMetrics: already mirrored');
    this.#mirror = sink;
    for (const s of this.#series.values()) {
      if (s.kind === 'counter') sink.total(s.name, s.value, s.labels);
      else sink.set(s.name, s.value, s.labels);
    }
  }

  observe(name: string, value: number, labels?: MetricLabels): void {
    const key = labels === undefined ? name : this.#key(name, labels);
    let h = this.#histograms.get(key);
    if (h === undefined) {
      const labelsOf = this.#check(name, labels, 'histogram');
      const bounds = this.#buckets[name] ?? DEFAULT_BUCKETS;
      h = { name, labels: labelsOf, bounds, counts: new Float64Array(bounds.length + 1), count: 0, sum: 0 };
      this.#histograms.set(key, h);
    }
    const bounds = h.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    h.counts[i]!++;
    h.count++;
    h.sum += value;
    this.#mirror?.observe(name, value, h.labels);
  }

  /**
   * Registers a reader of counts kept elsewhere: it runs before every read (`value`, `total`,
   * `snapshot`, `refresh`) and writes their current values with `total` and `set`.
   */
  collect(collector: (sink: MetricsCollectorSink) => void): void {
    this.#collectors.push(collector);
  }

  /** Runs the collectors (the reads do it themselves). */
  refresh(): void {
    if (this.#collectors.length === 0) return;
    const sink: MetricsCollectorSink = {
      total: (name, value, labels) => {
        const series = this.#get(name, labels, 'counter');
        series.value = value;
        this.#mirror?.total(name, value, series.labels);
      },
      set: (name, value, labels) => this.set(name, value, labels),
    };
    for (const collector of this.#collectors) collector(sink);
  }

  /** A counter's or gauge's value for exactly these labels (0 when never written). */
  value(name: string, labels?: MetricLabels): number {
    this.refresh();
    return this.#series.get(labels === undefined ? name : this.#key(name, labels))?.value ?? 0;
  }

  /** A counter summed over every label set, or by the value of one label (`by`). */
  total(name: string): number;
  total(name: string, by: string): Record<string, number>;
  total(name: string, by?: string): number | Record<string, number> {
    this.refresh();
    let sum = 0;
    const split: Record<string, number> = {};
    for (const s of this.#series.values()) {
      if (s.name !== name) continue;
      sum += s.value;
      if (by !== undefined) {
        const v = s.labels[by] ?? '';
        split[v] = (split[v] ?? 0) + s.value;
      }
    }
    return by === undefined ? sum : split;
  }

  /** One histogram's figures (undefined when nothing was observed for these labels). */
  histogram(name: string, labels?: MetricLabels): HistogramSample | undefined {
    const h = this.#histograms.get(labels === undefined ? name : this.#key(name, labels));
    return h === undefined ? undefined : sampleOf(h);
  }

  /** Every series as plain data, sorted by name then labels. */
  snapshot(): MetricsSnapshot {
    this.refresh();
    const counters: MetricSample[] = [];
    const gauges: MetricSample[] = [];
    for (const s of this.#series.values()) (s.kind === 'counter' ? counters : gauges).push({ name: s.name, labels: s.labels, value: s.value });
    const order = (a: { name: string; labels: MetricLabels }, b: { name: string; labels: MetricLabels }): number =>
      a.name === b.name ? labelText(a.labels).localeCompare(labelText(b.labels)) : a.name < b.name ? -1 : 1;
    return {
      counters: counters.sort(order),
      gauges: gauges.sort(order),
      histograms: [...this.#histograms.values()].map(sampleOf).sort(order),
    };
  }

  #get(name: string, labels: MetricLabels | undefined, kind: MetricKind): Series {
    const key = labels === undefined ? name : this.#key(name, labels);
    let s = this.#series.get(key);
    if (s === undefined) {
      s = { name, labels: this.#check(name, labels, kind), kind, value: 0 };
      this.#series.set(key, s);
    } else if (s.kind !== kind) {
      throw new TypeError(`metric ${name} is a ${s.kind}, not a ${kind}`);
    }
    return s;
  }

  #key(name: string, labels: MetricLabels): string {
    let text = this.#keys.get(labels);
    if (text === undefined) {
      text = labelText(labels);
      this.#keys.set(labels, text);
    }
    return text === '' ? name : `${name}{${text}}`;
  }

  /** Checks a new series' name, kind and labels; returns the labels frozen. */
  #check(name: string, labels: MetricLabels | undefined, kind: MetricKind): MetricLabels {
    if (!NAME.test(name)) throw new TypeError(`metric name ${JSON.stringify(name)} is not a Prometheus name`);
    const known = this.#kinds.get(name);
    if (known !== undefined && known !== kind) throw new TypeError(`metric ${name} is a ${known}, not a ${kind}`);
    if (kind === 'counter' && !name.endsWith('_total')) throw new TypeError(`counter ${name} must end in _total`);
    if (kind !== 'counter' && name.endsWith('_total')) throw new TypeError(`${kind} ${name} must not end in _total (counters only)`);
    this.#kinds.set(name, kind);
    if (labels === undefined) return NO_LABELS;
    for (const [label, value] of Object.entries(labels)) {
      if (!LABEL.test(label) || label.startsWith('__')) throw new TypeError(`metric ${name}: label name ${JSON.stringify(label)} is not a Prometheus label`);
      if (ID_LIKE.test(value)) throw new TypeError(`metric ${name}: label ${label} looks like an id or an address; ids never go in labels`);
    }
    return Object.freeze({ ...labels });
  }
}

function labelText(labels: MetricLabels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`)
    .join(',');
}

function sampleOf(h: Histogram): HistogramSample {
  const buckets: { le: number; count: number }[] = [];
  let cumulative = 0;
  for (let i = 0; i < h.counts.length; i++) {
    cumulative += h.counts[i]!;
    buckets.push({ le: i < h.bounds.length ? h.bounds[i]! : Infinity, count: cumulative });
  }
  return {
    name: h.name,
    labels: h.labels,
    count: h.count,
    sum: h.sum,
    buckets,
    quantiles: { p50: quantile(h, 0.5), p90: quantile(h, 0.9), p99: quantile(h, 0.99) },
  };
}

/**
 * The q-quantile estimated from the buckets: linear within the bucket the rank falls in (the
 * first bucket from 0); a rank in the +Inf bucket gives the highest finite bound.
 */
export function quantile(h: { readonly bounds: readonly number[]; readonly counts: ArrayLike<number>; readonly count: number }, q: number): number | undefined {
  if (h.count === 0) return undefined;
  const rank = q * h.count;
  let below = 0;
  for (let i = 0; i < h.counts.length; i++) {
    const n = h.counts[i]!;
    if (below + n >= rank && n > 0) {
      if (i >= h.bounds.length) return h.bounds[h.bounds.length - 1];
      const lower = i === 0 ? 0 : h.bounds[i - 1]!;
      const upper = h.bounds[i]!;
      return lower + (upper - lower) * ((rank - below) / n);
    }
    below += n;
  }
  return h.bounds[h.bounds.length - 1];
}
