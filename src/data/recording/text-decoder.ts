import { DecodeError } from '../../core/errors.ts';
import type { MarketEvent } from '../../core/events.ts';
import { decodeRecordedEvent, decodeRecordingHeader, headerTokens } from './decode-recorded.ts';
import type { RecordingHeader } from './format.ts';
import { scanEventLine, ScanTokenTable, type ScanTokenEntry } from './line-scanner.ts';

/** A line longer than this is refused rather than buffered without end. */
const MAX_LINE_BYTES = 256 * 1024 * 1024;

/** Lines the scanner reads start so (as every writer spells them); others take the generic path. */
const SCANNED_PREFIXES = [Buffer.from('{"t":"book"', 'latin1'), Buffer.from('{"t":"trade"', 'latin1')];
const NEWLINE = 10;
const EMPTY = Buffer.alloc(0);

/**
 * Decodes the text form fed in byte chunks of any size (lines split on the newline byte, which
 * never occurs inside a UTF-8 character): line 1 the header, then one event per line.
 * Book and trade lines take the single-pass scanner, everything else (and anything the scanner does not
 * expect) JSON.parse + the generic decoder. Errors are DecodeErrors whose path starts with
 * `file:line`. Blank lines are skipped; events must not go back in tsInit.
 */
export class RecordingTextDecoder {
  readonly #where: string;
  #line = 0;
  #carry: Buffer = EMPTY;
  #header: RecordingHeader | undefined;
  #tokens: Map<string, string> = new Map();
  #scanTokens = new ScanTokenTable([]);
  #lastTsInit = 0;

  /** `where` names the file in errors. */
  constructor(where: string) {
    this.#where = where;
  }

  get header(): RecordingHeader | undefined {
    return this.#header;
  }

  /** Lines read so far. */
  get line(): number {
    return this.#line;
  }

  /** Decodes every complete line of what was carried over plus `chunk`, appending events to `out`. */
  push(chunk: Buffer, out: MarketEvent[]): void {
    let start = 0;
    if (this.#carry.length > 0) {
      // finish the line cut by the previous chunk on its own (the chunk itself is not copied)
      const nl = chunk.indexOf(NEWLINE);
      if (nl < 0) {
        this.#keep(Buffer.concat([this.#carry, chunk]));
        return;
      }
      const line = Buffer.concat([this.#carry, chunk.subarray(0, nl)]);
      this.#carry = EMPTY;
      this.#decodeLine(line, 0, line.length, out);
      start = nl + 1;
    }
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl < 0) break;
      this.#decodeLine(chunk, start, nl, out);
      start = nl + 1;
    }
    // a copy, so the chunk itself is not kept
    this.#keep(start === chunk.length ? EMPTY : Buffer.from(chunk.subarray(start)));
  }

  /** Holds the start of a line that goes on in the next chunk. */
  #keep(carry: Buffer): void {
    this.#carry = carry;
    if (carry.length > MAX_LINE_BYTES) {
      throw new DecodeError(`${this.#where}:${this.#line + 1}`, `a line shorter than ${MAX_LINE_BYTES} bytes`, 'a longer one');
    }
  }

  /** The last line (one without a newline at the end); checks that there was a header. */
  end(out: MarketEvent[]): void {
    if (this.#carry.length > 0) {
      const last = this.#carry;
      this.#carry = EMPTY;
      this.#decodeLine(last, 0, last.length, out);
    }
    if (this.#header === undefined) throw new DecodeError(`${this.#where}:1`, 'a recording header line', this.#line === 0 ? 'an empty file' : undefined);
  }

  #decodeLine(src: Buffer, start: number, end: number, out: MarketEvent[]): void {
    const line = ++this.#line;
    if (this.#header === undefined) {
      this.#header = this.#decodeHeader(src.toString('utf8', start, end), line);
      this.#tokens = headerTokens(this.#header);
      const scanTokens: ScanTokenEntry[] = [];
      for (const m of this.#header.markets) {
        for (const t of m.tokens) scanTokens.push({ tokenId: t.tokenId, conditionId: m.conditionId });
      }
      this.#scanTokens = new ScanTokenTable(scanTokens);
      return;
    }
    let event: MarketEvent | undefined;
    if (startsWith(src, start, SCANNED_PREFIXES[0]!) || startsWith(src, start, SCANNED_PREFIXES[1]!)) event = scanEventLine(src, start, end, this.#scanTokens);
    if (event === undefined) {
      const text = src.toString('utf8', start, end);
      if (text.trim() === '') return;
      event = this.#decodeGeneric(text, line);
      // a market that joined: the generic decoder took its tokens, the scanner takes them too
      if (event.type === 'marketAdded') for (const t of event.market.tokens) this.#scanTokens.add({ tokenId: t.tokenId, conditionId: event.market.conditionId });
    }
    if (event.tsInit < this.#lastTsInit) {
      throw new DecodeError(`${this.#where}:${line}: tsInit`, `>= the previous event's tsInit (${this.#lastTsInit}); events are in tsInit order`, event.tsInit);
    }
    this.#lastTsInit = event.tsInit;
    out.push(event);
  }

  #decodeGeneric(text: string, line: number): MarketEvent {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new DecodeError(`${this.#where}:${line}`, 'one JSON object (an event)', excerpt(text));
    }
    try {
      return decodeRecordedEvent(value, this.#tokens);
    } catch (err) {
      throw located(err, `${this.#where}:${line}`);
    }
  }

  #decodeHeader(text: string, line: number): RecordingHeader {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new DecodeError(`${this.#where}:${line}`, 'the JSON header of a clobot recording', excerpt(text));
    }
    try {
      return decodeRecordingHeader(value);
    } catch (err) {
      throw located(err, `${this.#where}:${line}`);
    }
  }
}

/** The same DecodeError with `where` in front of its field path. */
export function located(err: unknown, where: string): unknown {
  if (err instanceof DecodeError) return new DecodeError(`${where}: ${err.path}`, err.expected, err.actual);
  return err;
}

function startsWith(buf: Buffer, at: number, prefix: Buffer): boolean {
  if (at + prefix.length > buf.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buf[at + i] !== prefix[i]) return false;
  return true;
}

function excerpt(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
