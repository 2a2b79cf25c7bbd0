// A module of its own: recovery after a local restart releases the lease (recovery-job.ts), and
// importing it from pool-job.ts brought the pool run (the upload planner, the normalizer) into the
// recovery job's cold start.

/** The pool run's lease name (recovery after a local restart releases it: recovery-job.ts). */
export const POOL_LEASE = 'contact-pool';
