import { openRecording } from './src/data/recording/reader.ts';
for (const f of process.argv.slice(2)) {
  const t0 = performance.now();
  const r = await openRecording(f);
  let n = 0, books = 0, h = 0;
  for await (const batch of r.batches()) { n += batch.length; for (const e of batch) if (e.type === 'book') { books++; h = (h * 31 + e.book.bids.length + (e.book.asks[0]?.price ?? 0)) % 1e9; } }
  console.log(f, r.form, r.gzip, n, books, h, ((performance.now() - t0) / 1000).toFixed(1) + ' s', Math.round(process.memoryUsage().rss / 1e6) + ' MB rss');
}
