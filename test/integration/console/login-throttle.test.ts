import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';

// The local console provider's sign-in form throttles failed logins (local/login-throttle.ts): 5
// per account and 20 per address in 15 minutes, then a 429 with Retry-After and a clear line,
// even for the right password. Driven over HTTP as a browser would: authorization request, the
// interaction's cookies, the form POST.

const service = useTestService();

/** Starts a sign-in: the interaction's form path and the cookies that go with it. */
async function startSignIn(): Promise<{ action: string; cookie: string }> {
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
  const url = `${service.url}/oidc/auth?client_id=console&response_type=code&scope=openid&state=s&redirect_uri=${encodeURIComponent(`${service.url}/callback`)}&code_challenge=${challenge}&code_challenge_method=S256`;
  const auth = await fetch(url, { redirect: 'manual' });
  const location = auth.headers.get('location');
  expect(location).toMatch(/\/oidc\/interaction\//);
  const cookie = auth.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return { action: `${new URL(location!, service.url).pathname}/login`, cookie };
}

async function signIn(form: { action: string; cookie: string }, email: string, password: string): Promise<Response> {
  return fetch(`${service.url}${form.action}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: form.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
}

describe('local console sign-in throttling', () => {
  it('five wrong passwords for an account refuse the sixth attempt, the right password included; other accounts still sign in', async () => {
    const { owner, member } = service.runtime.console!;
    const form = await startSignIn();
    for (let i = 0; i < 5; i++) {
      const wrong = await signIn(form, owner.email, `wrong-${i}`);
      expect(wrong.status).toBe(401);
      expect(await wrong.text()).toContain('Wrong email or password.');
    }
    const refused = await signIn(form, owner.email.toUpperCase(), owner.password);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(await refused.text()).toContain('Too many failed sign-ins for this account. Try again in 15 minutes.');

    const other = await signIn(await startSignIn(), member.email, member.password);
    expect(other.status).toBe(303);
  });

  it('twenty failures from one address across accounts refuse that address, whatever the account', async () => {
    const { member } = service.runtime.console!;
    const form = await startSignIn();
    // The first test left 5 failures from this address; 15 more across unknown accounts fill it.
    for (let i = 0; i < 15; i++) expect((await signIn(form, `nobody-${i}@example.test`, 'guess')).status).toBe(401);
    const refused = await signIn(await startSignIn(), member.email, member.password);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain('Too many failed sign-ins from this address.');
  });
});
