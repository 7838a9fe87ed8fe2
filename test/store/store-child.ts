/**
 * A process that owns a run store, for the crash and lock tests (run through bin/run-ts.mjs):
 *   hold  <path>  open the store, print "ready <pid> <runId>", then wait to be killed
 *   write <path>  open the store, print "ready ...", then write in a loop, printing
 *                 "ids <from> <to>" after each id reservation and "ack <n>" after write n is
 *                 committed, until killed
 *   stage <path>  open the store, stage 15 orders with their hashes (as before a post), print
 *                 "staged", then SIGKILL itself on the same turn (before the staged rows are folded)
 * Lines go out with writeSync, so a line the parent read was written after its commit.
 */
import { writeSync } from 'node:fs';
import { RunStore } from '../../src/store/run-store.ts';
import { fill, request } from './fixtures.ts';

const [mode, path] = process.argv.slice(2);
if ((mode !== 'hold' && mode !== 'write' && mode !== 'stage') || !path) {
  process.stderr.write('usage: store-child.ts hold|write|stage <path>\n');
  process.exit(2);
}
const say = (line: string) => writeSync(1, line + '\n');
const store = RunStore.open(path, { create: true, runName: 'child' });
say(`ready ${process.pid} ${store.runId}`);

if (mode === 'hold') {
  setInterval(() => undefined, 60_000);
} else if (mode === 'stage') {
  const { from } = store.reserveIds(15);
  const batch = Array.from({ length: 15 }, (_, i) => {
    const req = request(store.runId, from + i);
    return { order: { request: req, status: 'PENDING_SUBMIT' as const, orderId: `0x${(from + i).toString(16).padStart(64, '0')}`, filled: 0 }, at: req.createdAt };
  });
  store.transaction(() => store.stageOrders(batch));
  say('staged');
  process.kill(process.pid, 'SIGKILL');
} else {
  let ids = { from: 0, to: -1 };
  let next = 0;
  for (let n = 1; n <= 1_000_000; n++) {
    if (next > ids.to) {
      ids = store.reserveIds(40);
      next = ids.from;
      say(`ids ${ids.from} ${ids.to}`);
    }
    const req = request(store.runId, next++, { tag: `n${n}` });
    const write = () => {
      store.saveOrder({ request: req, status: 'PENDING_SUBMIT', orderId: undefined, filled: 0 }, req.createdAt);
      store.updateOrder(req.clientOrderId, { status: 'LIVE', orderId: `0x${n.toString(16).padStart(64, '0')}`, at: req.createdAt + 1 });
      store.saveFill(fill(req, `trade-${n}`, { orderId: `0x${n.toString(16).padStart(64, '0')}`, size: 1_000_000 }));
      store.journal({ type: 'order', strategyId: 'mm', event: { type: 'OrderAccepted', clientOrderId: req.clientOrderId, orderId: `n${n}`, tsInit: req.createdAt + 1 } });
    };
    // half the writes one commit per statement, half batched in a transaction
    if (n % 2 === 0) store.transaction(write);
    else write();
    say(`ack ${n}`);
  }
  store.close();
}
