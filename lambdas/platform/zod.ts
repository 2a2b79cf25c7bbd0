// The one door to zod in lambdas/: zod/mini, whose functions a bundle keeps only when it calls
// them (~32 KB per bundle, against ~97 KB for classic zod, whose methods all ride on every schema:
// docs/performance.md), with the English messages classic zod gives by default, so errors read the same.
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';
