import { join } from 'node:path';
import { PROJECT_ROOT } from '../../lib/service-function';

/** The Node 22 the project pins (the `node` devDependency), whatever node runs the tests. */
export const NODE22 = join(PROJECT_ROOT, 'node_modules/.bin/node');
