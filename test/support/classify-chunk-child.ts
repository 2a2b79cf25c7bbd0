// One ClassifyChunk Lambda in its own process, against the parent's table and file store (the
// environment points there): calls the deployed entry (lambdas/functions/steps/classify-chunk.ts)
// as the workflow's loop does, again while it answers done false (or once, with `once`: one Lambda
// invocation), and prints each answer as a line of JSON (with the process's limiter totals). A test kills it with SIGKILL mid-chunk.
import { handler } from '../../lambdas/functions/steps/classify-chunk';
import { limiterTotals } from '../../lambdas/ratelimit/shared-limiter';

const [uploadId, chunk, once] = process.argv.slice(2) as [string, string, string?];
for (;;) {
  const answer = await handler({ upload_id: uploadId, chunk: Number(chunk) }, { getRemainingTimeInMillis: () => 600_000 });
  // What this process's leases of the shared rate cost so far (the bench adds them up).
  console.log(JSON.stringify({ ...answer, limiter: limiterTotals() }));
  if (answer.done || once === 'once') break;
}
process.exit(0);
