import { describe, expect, it } from 'vitest';
import { boundaryOf, controlInPartHeaders } from '../../../lambdas/uploads/part-header-control';

const part = (headers: string, content = 'x') => `--b1\r\n${headers}\r\n\r\n${content}\r\n`;
const body = (...parts: string[]) => Buffer.from(`${parts.join('')}--b1--\r\n`, 'latin1');
const TYPE = 'multipart/form-data; boundary=b1';

describe('controlInPartHeaders', () => {
  it('reads the boundary plain or quoted', () => {
    expect(boundaryOf('multipart/form-data; boundary=abc')).toBe('abc');
    expect(boundaryOf('multipart/form-data; BOUNDARY="a b;c"')).toBe('a b;c');
    expect(boundaryOf('multipart/form-data')).toBeNull();
  });

  it('finds nothing in clean headers, nor in a part\'s content', () => {
    expect(controlInPartHeaders(body(part('Content-Disposition: form-data; name="a"', 'bell\x07 in content'), part('Content-Disposition: form-data; name="file"; filename="x.csv"\r\nContent-Type: text/csv')), TYPE)).toBeNull();
  });

  it('names the byte and whether it is in the file name, quoted or not', () => {
    expect(controlInPartHeaders(body(part('Content-Disposition: form-data; name="file"; filename="a\x1bb.csv"')), TYPE)).toEqual({ character: 'U+001B', inFilename: true });
    expect(controlInPartHeaders(body(part('Content-Disposition: form-data; name="file"; filename=a\x7f.csv')), TYPE)).toEqual({ character: 'U+007F', inFilename: true });
    expect(controlInPartHeaders(body(part("Content-Disposition: form-data; name=\"file\"; filename*=UTF-8''a\x00b")), TYPE)).toEqual({ character: 'U+0000', inFilename: true });
    expect(controlInPartHeaders(body(part('Content-Disposition: form-data; name="fi\x01le"; filename="ok.csv"')), TYPE)).toEqual({ character: 'U+0001', inFilename: false });
    expect(controlInPartHeaders(body(part('Content-Disposition: form-data; name="a"'), part('Content-Disposition: form-data; name="file"; filename="a\r\nb.csv"')), TYPE)).toEqual({ character: 'U+000D', inFilename: true });
    expect(controlInPartHeaders(body(part('Content-Disposition: form-data; name="file"\r\nX-Note: a\x07')), TYPE)).toEqual({ character: 'U+0007', inFilename: false });
  });

  it('answers null for a body without the boundary', () => {
    expect(controlInPartHeaders(Buffer.from('nothing here'), TYPE)).toBeNull();
    expect(controlInPartHeaders(body(part('Content-Disposition: form-data; name="a\x07"')), 'multipart/form-data')).toBeNull();
  });
});
