import { crashLoop, FAULTS } from './crash-loop.ts';

// The crash loop with the venue's error rate, drops and stalls on in every life (issue 14's fault loop).
crashLoop('error rate, drops and stalls on', FAULTS);
