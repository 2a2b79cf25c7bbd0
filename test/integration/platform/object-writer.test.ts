import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { useTestService } from '../../support/runtime';
import { filesBucket, getObject, objectExists, objectWriter, PART_BYTES } from '../../../lambdas/platform/blob';

// Large files (the processed file, its slices) go to the store a part at a time (a multipart
// upload): against the embedded store, through its signing gateway, as against S3.

useTestService();

describe('an object written a part at a time', () => {
  it('is the parts joined, visible only once closed', async () => {
    const key = `tests/object-writer/${Date.now()}.bin`;
    const parts = [randomBytes(PART_BYTES), randomBytes(PART_BYTES + 17)];
    const last = randomBytes(1234);
    const writer = objectWriter(filesBucket(), key, 'application/octet-stream');
    for (const part of parts) await writer.part(part);
    expect(await objectExists(filesBucket(), key)).toBe(false);
    await writer.close(last);
    expect((await getObject(filesBucket(), key))!.equals(Buffer.concat([...parts, last]))).toBe(true);
  });

  it('keeps each part as it was sent when the writer reuses its buffer as soon as the part is answered', async () => {
    // Finalize's part writer does this; the local runtime's client hands the store that very
    // buffer (local/in-process-agent.ts), so the store must have written a part before answering.
    const key = `tests/object-writer/reused-${Date.now()}.bin`;
    const buffer = Buffer.alloc(PART_BYTES);
    const sent: Buffer[] = [];
    const writer = objectWriter(filesBucket(), key, 'application/octet-stream');
    for (let i = 0; i < 4; i++) {
      randomBytes(PART_BYTES).copy(buffer);
      sent.push(Buffer.from(buffer));
      await writer.part(buffer);
    }
    buffer.fill(0);
    await writer.close(Buffer.from('end'));
    expect((await getObject(filesBucket(), key))!.equals(Buffer.concat([...sent, Buffer.from('end')]))).toBe(true);
  });

  it('under a part, one plain put; a part under the store’s minimum is refused before it is sent', async () => {
    const key = `tests/object-writer/small-${Date.now()}.txt`;
    const writer = objectWriter(filesBucket(), key, 'text/plain');
    await expect(writer.part(Buffer.from('too small for a part'))).rejects.toThrow(/at least/);
    await writer.close(Buffer.from('small file'));
    expect((await getObject(filesBucket(), key))!.toString()).toBe('small file');
  });
});
