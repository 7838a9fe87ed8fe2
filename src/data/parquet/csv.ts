import { createReadStream } from 'node:fs';

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, or is empty. */
export function csvField(text: string): string {
  if (text === '' || /[",\r\n]/.test(text)) return '"' + text.replaceAll('"', '""') + '"';
  return text;
}

/**
 * The records of a CSV file (RFC 4180: quoted fields may hold commas, doubled quotes and line
 * breaks; `\n` or `\r\n` ends a record), streamed in batches. An unquoted empty field is null, a
 * quoted one (`""`) the empty text, as table-writer.ts writes them.
 */
export async function* readCsvRecords(path: string, batchSize = 10_000): AsyncGenerator<(string | null)[][]> {
  let records: (string | null)[][] = [];
  let record: (string | null)[] = [];
  let field = '';
  let quoted = false;
  let inQuotes = false;
  let afterQuote = false;
  let any = false; // the record has begun
  const endField = (): void => {
    record.push(field === '' && !quoted ? null : field);
    field = '';
    quoted = false;
    afterQuote = false;
  };
  const endRecord = (): void => {
    endField();
    records.push(record);
    record = [];
    any = false;
  };
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = chunk as string;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (inQuotes) {
        if (ch === '"') {
          inQuotes = false;
          afterQuote = true;
        } else field += ch;
        continue;
      }
      if (ch === '"') {
        if (afterQuote) field += '"'; // a doubled quote inside a quoted field
        inQuotes = true;
        quoted = true;
        afterQuote = false;
        any = true;
        continue;
      }
      afterQuote = false;
      if (ch === ',') {
        endField();
        any = true;
      } else if (ch === '\n') {
        if (any || field !== '' || record.length > 0) endRecord();
      } else if (ch !== '\r') {
        field += ch;
        any = true;
      }
    }
    if (records.length >= batchSize) {
      yield records;
      records = [];
    }
  }
  if (any || field !== '' || record.length > 0) endRecord();
  if (records.length > 0) yield records;
}
