import { restartWithAllocatorSettings } from './allocator-settings';

// The start file `npm start` runs (bin/local-bundle.ts): the process starts again with the
// settings (allocator-settings.ts) before the service's program and its packages are loaded.
restartWithAllocatorSettings();
