import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

// Screenshots live in SCREENSHOTS_BUCKET; the bucket's lifecycle rule removes them after 7 days.
// The endpoint comes from the SDK's configuration (AWS_ENDPOINT_URL_S3 locally); s3rver needs
// path-style addressing.

let client: S3Client | null = null;

function s3(): S3Client {
  client ??= new S3Client({ forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true' });
  return client;
}

function bucket(): string {
  const name = process.env.SCREENSHOTS_BUCKET;
  if (!name) throw new Error('SCREENSHOTS_BUCKET is not set');
  return name;
}

export const screenshotKey = (orgId: string, numberId: string, day: string, carrier: string, contentType: string): string =>
  `spam/${orgId}/${numberId}/${day}/${carrier.replace(/[^a-z0-9-]/g, '')}.${contentType === 'image/png' ? 'png' : 'jpg'}`;

export async function putScreenshot(key: string, bytes: Buffer, contentType: string): Promise<void> {
  await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: bytes, ContentType: contentType }));
}

export async function getScreenshot(key: string): Promise<Buffer | null> {
  try {
    const out = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
    return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : null;
  } catch (error) {
    if (error instanceof NoSuchKey || (error as Error).name === 'NoSuchKey' || (error as Error).name === 'NotFound') return null;
    throw error;
  }
}
