import { describe, expect, it } from 'vitest';
import { requestUrl } from '../../../local/api-gateway-server';

describe("the local API server's request target", () => {
  it('keeps the path sent, double slashes and all, with its query', () => {
    expect(requestUrl('//api/v1/credits/balance').pathname).toBe('//api/v1/credits/balance');
    expect(requestUrl('/api/v1/uploads?limit=3').pathname).toBe('/api/v1/uploads');
    expect(requestUrl('/api/v1/uploads?limit=3').searchParams.get('limit')).toBe('3');
    expect(requestUrl(undefined).pathname).toBe('/');
    expect(requestUrl('').pathname).toBe('/');
  });

  it('reads an absolute-form target (as sent to a proxy) as a URL', () => {
    expect(requestUrl('http://127.0.0.1:3000/health').pathname).toBe('/health');
  });
});
