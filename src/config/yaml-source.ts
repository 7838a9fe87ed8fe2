import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import { Dec } from '../core/fixed.ts';

/** One segment of a key path: a mapping key or a list index. */
export type PathSegment = string | number;
export type KeyPath = readonly PathSegment[];

/** A YAML syntax problem with its position (1-based). */
export interface YamlSyntaxIssue {
  readonly line: number;
  readonly col: number;
  readonly message: string;
}

/**
 * A parsed YAML config: the plain data plus a way back from a key path to its line.
 *
 * Numbers are kept exact: a plain scalar that YAML reads as a number but that a JS number cannot
 * hold as written (a 77-digit token id, an unquoted 0x address or condition id, a money value
 * with 20 digits) is handed on as its source text, so ids keep their digits and case and money
 * keeps every decimal. An empty value is null here (see emptyToDefaults in schema-keys.ts).
 */
export interface YamlSource {
  readonly data: unknown;
  /** Syntax errors; when non-empty, `data` is not to be trusted. */
  readonly syntax: readonly YamlSyntaxIssue[];
  /**
   * The line of the deepest node on `path` that exists: the key's own line when the key is
   * there, its parent's line when it is missing. 1 for an empty document.
   */
  lineOf(path: KeyPath): number;
}

export function parseYamlSource(text: string): YamlSource {
  const lineCounter = new LineCounter();
  // duplicate keys are found by duplicateKeys below: yaml's own check scans the mapping for
  // every key (quadratic: minutes for a file of 100k keys)
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, merge: true, uniqueKeys: false });
  const syntax = [
    ...doc.errors.map((err): YamlSyntaxIssue => {
      const pos = err.linePos?.[0] ?? lineCounter.linePos(err.pos[0]);
      return { line: pos.line || 1, col: pos.col || 1, message: firstLine(err.message) };
    }),
    ...duplicateKeys(doc, lineCounter),
  ].sort((a, b) => a.line - b.line || a.col - b.col);
  const keyIndex = new WeakMap<YAMLMap, Map<string, Pair>>();
  const lineOf = (path: KeyPath): number => lineOfPath(doc, lineCounter, keyIndex, path);
  if (syntax.length > 0) return { data: undefined, syntax, lineOf };
  keepInexactNumbersAsText(doc);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 1000 });
  } catch (err) {
    // e.g. an alias cycle or too many alias expansions
    return { data: undefined, syntax: [{ line: 1, col: 1, message: err instanceof Error ? firstLine(err.message) : String(err) }], lineOf };
  }
  return { data, syntax, lineOf };
}

/** A second key equal to an earlier one in the same mapping (as yaml's `uniqueKeys` would report it), in one pass. */
function duplicateKeys(doc: Document, lc: LineCounter): YamlSyntaxIssue[] {
  const out: YamlSyntaxIssue[] = [];
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const value = pair.key.value;
        if (!seen.has(value)) {
          seen.add(value);
          continue;
        }
        const pos = lc.linePos(pair.key.range?.[0] ?? 0);
        out.push({ line: pos.line || 1, col: pos.col || 1, message: 'Map keys must be unique' });
      }
    },
  });
  return out;
}

/** The message without yaml's " at line N, column M:" tail and source excerpt. */
function firstLine(message: string): string {
  const line = message.split('\n')[0] ?? message;
  return line.replace(/ at line \d+, column \d+:?$/, '').trim();
}

function keepInexactNumbersAsText(doc: Document): void {
  visit(doc, {
    Scalar(key, node) {
      if (key === 'key' || node.type !== 'PLAIN' || node.source === undefined) return;
      const value = node.value;
      if (typeof value !== 'number' && typeof value !== 'bigint') return;
      if (!isExact(node.source, value)) node.value = node.source;
    },
  });
}

function isExact(source: string, value: number | bigint): boolean {
  if (typeof value === 'bigint') return true;
  if (!Number.isFinite(value)) return true; // .inf / .nan: left to the schema to refuse
  let written: InstanceType<typeof Dec>;
  try {
    written = new Dec(source);
  } catch {
    return true; // a number form decimal.js does not read; leave yaml's value
  }
  return written.eq(new Dec(value));
}

/**
 * A mapping's pairs by key text, built on first use: a file with 100k keys in one mapping is
 * looked up once per key, so a scan per lookup would be quadratic. The first pair of a key wins.
 */
function pairsByKey(map: YAMLMap, index: WeakMap<YAMLMap, Map<string, Pair>>): Map<string, Pair> {
  let byKey = index.get(map);
  if (byKey === undefined) {
    byKey = new Map();
    for (const p of map.items) {
      if (isPair(p) && isScalar(p.key)) {
        const key = String(p.key.value);
        if (!byKey.has(key)) byKey.set(key, p);
      }
    }
    index.set(map, byKey);
  }
  return byKey;
}

function lineOfPath(doc: Document, lc: LineCounter, index: WeakMap<YAMLMap, Map<string, Pair>>, path: KeyPath): number {
  let node: unknown = doc.contents;
  let line = startLine(lc, node) ?? 1;
  for (const seg of path) {
    if (isAlias(node)) node = node.resolve(doc);
    if (isMap(node)) {
      const pair = pairsByKey(node, index).get(String(seg));
      if (!pair) break;
      line = startLine(lc, pair.key) ?? line;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg];
      if (item === undefined) break;
      line = startLine(lc, item) ?? line;
      node = item;
    } else {
      break;
    }
  }
  return line;
}

function startLine(lc: LineCounter, node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  if (!range) return undefined;
  return lc.linePos(range[0]).line || 1;
}
