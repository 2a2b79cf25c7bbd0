import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

// One S3 client per process. The endpoint comes from the SDK's configuration
// (AWS_ENDPOINT_URL_S3 locally, LocalStack via AWS_ENDPOINT_URL); s3rver needs path-style.

let client: S3Client | null = null;

export function s3(): S3Client {
  client ??= new S3Client({ forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true' });
  return client;
}

/** Drop the cached client (a process that switches endpoints, e.g. a second local runtime). */
export function resetS3(): void {
  client = null;
}

export function filesBucket(): string {
  const name = process.env.FILES_BUCKET;
  if (!name) throw new Error('FILES_BUCKET is not set');
  return name;
}

export async function putObject(bucket: string, key: string, body: string | Buffer, contentType: string): Promise<void> {
  await s3().send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
}

export async function getObject(bucket: string, key: string): Promise<Buffer | null> {
  try {
    const out = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : null;
  } catch (error) {
    if (error instanceof NoSuchKey || (error as Error).name === 'NoSuchKey' || (error as Error).name === 'NotFound') return null;
    throw error;
  }
}

/** A GET link valid `seconds` from now; `contentDisposition` (ASCII) is what S3 answers it with. */
export async function presignGet(bucket: string, key: string, seconds: number, contentDisposition?: string): Promise<string> {
  return getSignedUrl(
    s3(),
    new GetObjectCommand({ Bucket: bucket, Key: key, ResponseContentDisposition: contentDisposition }),
    { expiresIn: seconds },
  );
}
