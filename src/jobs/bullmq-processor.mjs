// Entry of a `clobot worker` sandboxed processor (BullMQ imports this file in each worker thread
// it starts): plain JavaScript, so the thread needs no loader, then registers tsx and loads the
// TypeScript processor. Works from `clobot`, tsx and vitest.
import { register } from 'tsx/esm/api';

register();
const { default: processBacktestJob } = await import('./bullmq-processor.ts');
export default processBacktestJob;
