// Entry of a local-pool worker thread: plain JavaScript, so node starts it without any loader,
// then registers tsx and loads the TypeScript worker. Works from tsx, vitest and a bare `node`.
import { register } from 'tsx/esm/api';

register();
await import('./job-worker.ts');
