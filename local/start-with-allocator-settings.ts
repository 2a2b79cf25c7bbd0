import { restartWithAllocatorSettings } from './allocator-settings';

// Imported first by bin/local.ts, so the process starts again with the settings before it starts
// the service (allocator-settings.ts).
restartWithAllocatorSettings();
