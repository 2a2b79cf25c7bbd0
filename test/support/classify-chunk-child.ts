// One ClassifyChunk Lambda in its own process, against the parent's table and file store (the
// environment points there): calls the deployed entry (lambdas/functions/steps/classify-chunk.ts)
// as the workflow's loop does, again while it answers done false, and prints each answer as a line
// of JSON. A test kills it with SIGKILL mid-chunk.
import { handler } from '../../lambdas/functions/steps/classify-chunk';

const [uploadId, chunk] = process.argv.slice(2) as [string, string];
for (;;) {
  const answer = await handler({ upload_id: uploadId, chunk: Number(chunk) }, { getRemainingTimeInMillis: () => 600_000 });
  console.log(JSON.stringify(answer));
  if (answer.done) break;
}
process.exit(0);
