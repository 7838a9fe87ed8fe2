import { DecodeError } from '../../core/errors.ts';
import type { MarketEvent } from '../market-events.ts';
import { decodeRecordedEvent, decodeRecordingHeader, headerTokens } from './decode-recorded.ts';
import type { RecordingHeader } from './format.ts';
import { scanBookLine } from './line-scanner.ts';

/** A line longer than this is refused rather than buffered without end. */
const MAX_LINE_CHARS = 256 * 1024 * 1024;

const BOOK_PREFIX = '{"t":"book"';

/**
 * Decodes the text form fed in pieces of any size: line 1 the header, then one event per line.
 * Book lines take the single-pass scanner, everything else (and anything the scanner does not
 * expect) JSON.parse + the generic decoder. Errors are DecodeErrors whose path starts with
 * `file:line`. Blank lines are skipped; events must not go back in tsInit.
 */
export class RecordingTextDecoder {
  readonly #where: string;
  #line = 0;
  #carry = '';
  #header: RecordingHeader | undefined;
  #tokens: Map<string, string> = new Map();
  readonly #conditions = new Map<string, string>();
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

  /** Decodes every complete line of `carry + text`, appending events to `out`. */
  push(text: string, out: MarketEvent[]): void {
    const src = this.#carry.length > 0 ? this.#carry + text : text;
    let start = 0;
    for (;;) {
      const nl = src.indexOf('\n', start);
      if (nl < 0) break;
      this.#decodeLine(src, start, nl, out);
      start = nl + 1;
    }
    this.#carry = start === 0 ? src : src.slice(start);
    if (this.#carry.length > MAX_LINE_CHARS) {
      throw new DecodeError(`${this.#where}:${this.#line + 1}`, `a line shorter than ${MAX_LINE_CHARS} characters`, 'a longer one');
    }
  }

  /** The last line (one without a newline at the end); checks that there was a header. */
  end(out: MarketEvent[]): void {
    if (this.#carry.length > 0) {
      const last = this.#carry;
      this.#carry = '';
      this.#decodeLine(last, 0, last.length, out);
    }
    if (this.#header === undefined) throw new DecodeError(`${this.#where}:1`, 'a recording header line', undefined);
  }

  #decodeLine(src: string, start: number, end: number, out: MarketEvent[]): void {
    const line = ++this.#line;
    if (this.#header === undefined) {
      this.#header = this.#decodeHeader(src.slice(start, end), line);
      this.#tokens = headerTokens(this.#header);
      return;
    }
    let event: MarketEvent | undefined;
    if (src.startsWith(BOOK_PREFIX, start)) event = scanBookLine(src, start, end, this.#tokens, this.#conditions);
    if (event === undefined) {
      const text = src.slice(start, end);
      if (text.trim() === '') return;
      event = this.#decodeGeneric(text, line);
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

function excerpt(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
