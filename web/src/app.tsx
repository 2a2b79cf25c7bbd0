import { useEffect, useRef, useState } from 'preact/hooks';
import type { User } from 'oidc-client-ts';
import { api, whenUnauthorized } from './api';
import { currentUser, signIn, signOut } from './auth';
import { linkClick, usePath } from './router';
import { isCurrentNav } from './nav';
import type { Me } from './types';
import { UploadsPage } from './pages/uploads';
import { NewUploadPage } from './pages/new-upload';
import { UploadPage } from './pages/upload';
import { DeveloperPage } from './pages/developer';
import { CreditsPage } from './pages/credits';
import { WebhooksPage } from './pages/webhooks';
import { SpamPage } from './pages/spam';

export function App({ bootError }: { bootError?: string }) {
  const [user, setUser] = useState<User | null | undefined>(undefined);
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState<string | null>(bootError ?? null);
  const path = usePath();

  useEffect(() => {
    whenUnauthorized(() => setUser(null));
    void currentUser().then(setUser);
  }, []);
  useEffect(() => {
    if (!user) return;
    api<Me>('GET', '/me').then(setMe, (e: Error) => setError(e.message));
  }, [user]);

  const mainRef = useRef<HTMLElement>(null);
  useHeadingFocus(mainRef, path);

  if (user === undefined) return <p class="boot">Loading…</p>;
  if (!user) return <SignIn error={error} returnTo={path} />;
  if (!me) {
    // Signed in but refused by the console (e.g. no longer a member): a way out to another account.
    return (
      <main class="page">
        <h1>Phone validation console</h1>
        {error ? (
          <>
            <p role="alert" class="error">
              {error}
            </p>
            <button type="button" class="secondary" onClick={() => void signOut()}>
              Sign out
            </button>
          </>
        ) : (
          <p>Loading…</p>
        )}
      </main>
    );
  }

  const nav = [
    { to: '/', label: 'Uploads' },
    { to: '/uploads/new', label: 'New upload' },
    { to: '/spam', label: 'Spam monitoring' },
    { to: '/credits', label: 'Credits' },
    ...(me.role === 'owner' ? [{ to: '/developer', label: 'Developer' }, { to: '/webhooks', label: 'Webhooks' }] : []),
  ];
  const current = (to: string) => isCurrentNav(path, to);
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <div class="brand">
          <strong>Phone validation</strong>
          <span class="org">{me.organization.name}</span>
        </div>
        <nav aria-label="Main">
          <ul>
            {nav.map((n) => (
              <li key={n.to}>
                <a href={n.to} aria-current={current(n.to) ? 'page' : undefined} onClick={(e) => linkClick(e, n.to)}>
                  {n.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span>
            {me.user.email} <span class="role">({me.role})</span>
          </span>
          <button type="button" class="secondary" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" class="page" tabIndex={-1} ref={mainRef}>
        <Route path={path} me={me} />
      </main>
    </>
  );
}

function Route({ path, me }: { path: string; me: Me }) {
  if (path === '/' || path === '/uploads') return <UploadsPage />;
  if (path === '/uploads/new') return <NewUploadPage />;
  const upload = /^\/uploads\/([0-9a-f-]{36})$/.exec(path);
  if (upload) return <UploadPage id={upload[1]!} />;
  if (path === '/credits') return <CreditsPage />;
  if (path === '/spam') return <SpamPage />;
  if (path === '/webhooks') return me.role === 'owner' ? <WebhooksPage /> : <OwnersOnly title="Webhooks" what="manage webhooks" />;
  if (path === '/developer') return me.role === 'owner' ? <DeveloperPage me={me} /> : <OwnersOnly title="Developer" what="open the developer panel" />;
  return (
    <>
      <h1>Page not found</h1>
      <p>
        <a href="/" onClick={(e) => linkClick(e, '/')}>
          Back to uploads
        </a>
      </p>
    </>
  );
}

function OwnersOnly({ title, what }: { title: string; what: string }) {
  return (
    <>
      <h1>{title}</h1>
      <p role="alert">Only organization owners can {what}.</p>
    </>
  );
}

function SignIn({ error, returnTo }: { error: string | null; returnTo: string }) {
  return (
    <main class="signin" id="main">
      <h1>Phone validation console</h1>
      <p>Upload call lists, see which numbers are likely to answer, and manage API keys.</p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <button type="button" onClick={() => void signIn(returnTo === '/callback' ? '/' : returnTo)}>
        Sign in
      </button>
    </main>
  );
}

/**
 * On every in-app navigation (not the first load), focus moves to the new page's heading, so a
 * screen reader announces it and the keyboard starts from the page's top. Pages that load first
 * render their heading a moment later: it is awaited, for at most two seconds.
 */
function useHeadingFocus(mainRef: { current: HTMLElement | null }, path: string): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const main = mainRef.current;
    if (!main) return;
    const before = document.activeElement;
    const focusHeading = (): boolean => {
      // Someone already moved on (clicked or tabbed into the page): leave their focus alone.
      const now = document.activeElement;
      if (now !== before && now !== document.body && now !== main) return true;
      const heading = main.querySelector('h1');
      if (!heading) return false;
      heading.setAttribute('tabindex', '-1');
      heading.focus();
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => focusHeading() && observer.disconnect());
    observer.observe(main, { childList: true, subtree: true });
    const timer = setTimeout(() => observer.disconnect(), 2000);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [path]);
}
