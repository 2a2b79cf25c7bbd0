import { getObject, putObject } from '../platform/blob';
import { config } from '../platform/config';

// Screenshots live in SCREENSHOTS_BUCKET; the bucket's lifecycle rule removes them after 7 days.

function bucket(): string {
  const name = config().SCREENSHOTS_BUCKET;
  if (!name) throw new Error('SCREENSHOTS_BUCKET is not set');
  return name;
}

export const screenshotKey = (orgId: string, numberId: string, day: string, carrier: string, contentType: string): string =>
  `spam/${orgId}/${numberId}/${day}/${carrier.replace(/[^a-z0-9-]/g, '')}.${contentType === 'image/png' ? 'png' : 'jpg'}`;

export const putScreenshot = (key: string, bytes: Buffer, contentType: string): Promise<void> => putObject(bucket(), key, bytes, contentType);

export const getScreenshot = (key: string): Promise<Buffer | null> => getObject(bucket(), key);
