import { readFileSync } from 'node:fs';

// The bench's API client in a process of its own (multipart-client.ts): it builds and sends each
// multipart create, so that the CPU time the bench's process spends on a create is the service's
// (the API server, the handler, the embedded stores), not the client's encoding of the request.

interface Post {
  url: string;
  apiKey: string;
  csvPath: string;
  fields: Record<string, string>;
}

const files = new Map<string, Buffer>();

process.on('message', (post: Post) => {
  void (async () => {
    let bytes = files.get(post.csvPath);
    if (!bytes) files.set(post.csvPath, (bytes = readFileSync(post.csvPath)));
    const form = new FormData();
    for (const [k, v] of Object.entries(post.fields)) form.append(k, v);
    form.append('file', new Blob([bytes], { type: 'text/csv' }), 'bench.csv');
    const res = await fetch(post.url, { method: 'POST', body: form, headers: { authorization: `Bearer ${post.apiKey}` } });
    process.send!({ status: res.status, body: await res.text() });
  })().catch((error: unknown) => process.send!({ status: 0, body: String(error) }));
});
