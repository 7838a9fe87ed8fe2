import { crashLoop } from './crash-loop.ts';

// The crash loop without faults (the loop itself: test/engine/crash-loop.ts).
crashLoop('no faults', {});
