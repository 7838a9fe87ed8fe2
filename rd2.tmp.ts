import { readRecordingSync } from './src/data/recording/reader.ts';
const r = readRecordingSync(process.argv[2]!);
let prev = 0, ok = true; for (const e of r.events) { if (e.tsInit < prev) ok = false; prev = e.tsInit; }
console.log(r.form, r.header.markets.length, r.events.length, 'ordered', ok, new Set(r.events.filter(e => e.type === 'book').map(e => e.type === 'book' ? e.book.hash : '')).size, 'distinct hashes');
