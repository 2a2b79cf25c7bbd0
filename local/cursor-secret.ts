import { keyFileIn } from './key-file';

/**
 * The key of pagination cursors for `npm start` (docs/architecture.md): generated on first start
 * and kept in the data folder, so cursors stay valid across restarts.
 */
export const localCursorSecret = (dataDir: string): string => keyFileIn(dataDir, 'cursor-secret', 'list cursors handed out before stop working; clients start their lists again');
