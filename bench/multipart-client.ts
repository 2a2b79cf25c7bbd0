import { fork, type ChildProcess } from 'node:child_process';
import { bundleChild } from './bundle-child';

export interface MultipartClient {
  /** POSTs the CSV at `csvPath` with `fields` as multipart/form-data to `url`; the answer's status and text. */
  post(url: string, apiKey: string, csvPath: string, fields: Record<string, string>): Promise<{ status: number; body: string }>;
  close(): void;
}

/** A client in a process of its own (multipart-client-child.ts), one request at a time. */
export async function startMultipartClient(): Promise<MultipartClient> {
  const child: ChildProcess = fork(await bundleChild('./multipart-client-child.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return {
    post: (url, apiKey, csvPath, fields) =>
      new Promise((resolve, reject) => {
        const exited = (code: number | null) => reject(new Error(`the bench's client exited ${code}`));
        child.once('exit', exited);
        child.once('message', (answer) => {
          child.off('exit', exited);
          resolve(answer as { status: number; body: string });
        });
        child.send({ url, apiKey, csvPath, fields });
      }),
    close: () => child.kill(),
  };
}
