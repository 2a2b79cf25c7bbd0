import type { S3Client } from '@aws-sdk/client-s3';
import { config } from './config';
import { storage } from './storage';
import { lazyModule } from './aws/lazy-module';

// S3 commands loaded at first use, each a module apart (lib/bundle-options.ts), so that a function
// carries only the commands it calls; the build then puts the S3 chunks a function holds in one file
// (tools/merge-lazy-groups.mjs). The client is the storage's (./storage.ts).
/** GetObject and its not-found error (also the file-store probe's, ./dependency-checks.ts). */
export const s3GetSdk = /* @__PURE__ */ lazyModule(() => import('./aws/sdk/s3-get'));
const headSdk = /* @__PURE__ */ lazyModule(() => import('./aws/sdk/s3-head'));
const putSdk = /* @__PURE__ */ lazyModule(() => import('./aws/sdk/s3-put'));
const copySdk = /* @__PURE__ */ lazyModule(() => import('./aws/sdk/s3-copy'));
const multipartSdk = /* @__PURE__ */ lazyModule(() => import('./aws/sdk/s3-multipart'));
const presigner = /* @__PURE__ */ lazyModule(() => import('./aws/sdk/s3-presign'));
const deleteSdk = /* @__PURE__ */ lazyModule(() => import('./aws/sdk/s3-delete'));
const listSdk = /* @__PURE__ */ lazyModule(() => import('./aws/sdk/s3-list'));

/** The S3 client of the composition root's storage. */
export function s3(): Promise<S3Client> {
  return storage().blob();
}

/** The client that signs links handed to clients: where another machine reaches the store when the root says so, else the S3 client. */
export function linkSigner(): Promise<S3Client> {
  return storage().linkSigner();
}

export function filesBucket(): string {
  const name = config().FILES_BUCKET;
  if (!name) throw new Error('FILES_BUCKET is not set');
  return name;
}

export async function putObject(bucket: string, key: string, body: string | Buffer, contentType: string): Promise<void> {
  const [client, { PutObjectCommand }] = await Promise.all([s3(), putSdk()]);
  await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
}

/** Deletes each key (one missing already is fine: S3 answers a delete of nothing with success). */
export async function deleteObjects(bucket: string, keys: readonly string[]): Promise<void> {
  const [client, { DeleteObjectCommand }] = await Promise.all([s3(), deleteSdk()]);
  await Promise.all(keys.map((key) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))));
}

/**
 * The size of each part an `ObjectWriter` sends but the last: S3's minimum, 5 MiB, since a writer
 * holds a part before sending it (finalize, a part for each file it writes at once); 10,000 parts
 * make objects of up to 48 GiB.
 */
export const PART_BYTES = 5 * 1024 * 1024;

/**
 * An object written a part at a time, so its writer never holds it whole: `part` sends the next
 * part (each but the last at least PART_BYTES; the bytes may be reused once it resolves), `close`
 * the last one and makes the object: visible only then, whole (a multipart upload), or not at all.
 * An object smaller than one part is one PutObject. A writer that never closes leaves an
 * incomplete upload, which the bucket's lifecycle rule removes after a day (lib/data-construct.ts).
 */
export interface ObjectWriter {
  part(bytes: Buffer): Promise<void>;
  close(last: Buffer): Promise<void>;
}

export function objectWriter(bucket: string, key: string, contentType: string): ObjectWriter {
  let uploadId: string | null = null;
  const parts: { ETag: string; PartNumber: number }[] = [];
  const send = async (bytes: Buffer): Promise<void> => {
    const [client, { CreateMultipartUploadCommand, UploadPartCommand }] = await Promise.all([s3(), multipartSdk()]);
    uploadId ??= (await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }))).UploadId ?? null;
    if (!uploadId) throw new Error(`${key}: the store started no multipart upload`);
    const PartNumber = parts.length + 1;
    const out = await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber, Body: bytes }));
    if (!out.ETag) throw new Error(`${key}: part ${PartNumber} answered without an ETag`);
    parts.push({ ETag: out.ETag, PartNumber });
  };
  return {
    async part(bytes) {
      if (bytes.length < PART_BYTES) throw new Error(`${key}: a part but the last holds at least ${PART_BYTES} bytes (got ${bytes.length})`);
      await send(bytes);
    },
    async close(last) {
      if (uploadId === null) return putObject(bucket, key, last, contentType);
      if (last.length) await send(last);
      const [client, { CompleteMultipartUploadCommand }] = await Promise.all([s3(), multipartSdk()]);
      await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    },
  };
}

/** Whether an S3 call failed because its object is not there (a GET's NoSuchKey, a HEAD's NotFound). */
export function isMissingObject(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NoSuchKey' || error.name === 'NotFound');
}

export async function getObject(bucket: string, key: string): Promise<Buffer | null> {
  const [client, { GetObjectCommand }] = await Promise.all([s3(), s3GetSdk()]);
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    if (!out.Body) return null;
    return await readBody(out.Body as AsyncIterable<Uint8Array>, out.ContentLength);
  } catch (error) {
    if (isMissingObject(error)) return null;
    throw error;
  }
}

/** Bytes [start, end) of an object (a ranged GET); the object must exist and hold them. */
export async function getObjectRange(bucket: string, key: string, start: number, end: number): Promise<Buffer> {
  if (end <= start) return Buffer.alloc(0);
  const [client, { GetObjectCommand }] = await Promise.all([s3(), s3GetSdk()]);
  const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${start}-${end - 1}` }));
  if (!out.Body) throw new Error(`${key}: no body for bytes ${start}-${end - 1}`);
  const bytes = await readBody(out.Body as AsyncIterable<Uint8Array>, out.ContentLength);
  if (bytes.length !== end - start) throw new Error(`${key}: ${bytes.length} bytes answered for ${end - start} asked`);
  return bytes;
}

/** An object read as it arrives: its body's pieces, its length and its ETag. */
export interface ObjectStream {
  body: AsyncIterable<Uint8Array>;
  length: number;
  etag: string;
}

/** An object's body as a stream (a large file read without holding it), or null when there is none. */
export async function getObjectStream(bucket: string, key: string): Promise<ObjectStream | null> {
  const [client, { GetObjectCommand }] = await Promise.all([s3(), s3GetSdk()]);
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    if (!out.Body) return null;
    return { body: out.Body as AsyncIterable<Uint8Array>, length: out.ContentLength ?? 0, etag: out.ETag ?? '' };
  } catch (error) {
    if (isMissingObject(error)) return null;
    throw error;
  }
}

/** The whole body of an object opened as a stream. */
export const readObjectStream = (object: ObjectStream): Promise<Buffer> => readBody(object.body, object.length);

/** Lets go of an object opened as a stream without reading it (the connection is not kept waiting). */
export function discardObjectStream(object: ObjectStream): void {
  (object.body as { destroy?: () => void }).destroy?.();
}

/**
 * Copies an object inside the store (no byte passes through this process), with a content type of
 * its own; `ifMatch`: only if the source is still the version of that ETag (S3 answers 412 otherwise).
 */
export async function copyObject(bucket: string, from: string, to: string, contentType: string, ifMatch: string): Promise<void> {
  const [client, { CopyObjectCommand }] = await Promise.all([s3(), copySdk()]);
  await client.send(
    new CopyObjectCommand({
      Bucket: bucket,
      Key: to,
      CopySource: `${bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
      CopySourceIfMatch: ifMatch || undefined,
      MetadataDirective: 'REPLACE',
      ContentType: contentType,
    }),
  );
}

/**
 * The body in one buffer of its announced length, filled as the chunks arrive: collecting the
 * chunks and joining them held a large file (a 100 MB original) twice.
 */
async function readBody(body: AsyncIterable<Uint8Array>, length: number | undefined): Promise<Buffer> {
  if (length === undefined) {
    const chunks: Uint8Array[] = [];
    for await (const chunk of body) chunks.push(chunk);
    return Buffer.concat(chunks);
  }
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for await (const chunk of body) {
    if (at + chunk.length > length) throw new Error(`object body is longer than its Content-Length ${length}`);
    out.set(chunk, at);
    at += chunk.length;
  }
  if (at !== length) throw new Error(`object body ended at ${at} of ${length} bytes`);
  return out;
}

/**
 * The names right under `prefix` (each key's rest after it, up to a further '/': deeper keys are
 * not listed), every page of them: one request per 1,000 names, where asking for each by HEAD
 * costs one request a name.
 */
export async function namesUnder(bucket: string, prefix: string): Promise<string[]> {
  const [client, { ListObjectsV2Command }] = await Promise.all([s3(), listSdk()]);
  const names: string[] = [];
  let token: string | undefined;
  do {
    const out = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, Delimiter: '/', ContinuationToken: token }));
    for (const object of out.Contents ?? []) if (object.Key) names.push(object.Key.slice(prefix.length));
    token = out.IsTruncated ? out.NextContinuationToken : undefined;
  } while (token);
  return names;
}

/** Whether an object exists, asked with HEAD: nothing is downloaded. */
export async function objectExists(bucket: string, key: string): Promise<boolean> {
  const [client, { HeadObjectCommand }] = await Promise.all([s3(), headSdk()]);
  try {
    await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch (error) {
    if (isMissingObject(error) || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

/** A GET link valid `seconds` from now; `contentDisposition` (ASCII) is what S3 answers it with. */
export async function presignGet(bucket: string, key: string, seconds: number, contentDisposition?: string): Promise<string> {
  const [signer, { GetObjectCommand }, { getSignedUrl }] = await Promise.all([linkSigner(), s3GetSdk(), presigner()]);
  return getSignedUrl(
    signer,
    new GetObjectCommand({ Bucket: bucket, Key: key, ResponseContentDisposition: contentDisposition }),
    { expiresIn: seconds },
  );
}
