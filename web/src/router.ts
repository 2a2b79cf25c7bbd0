import { useEffect, useState } from 'preact/hooks';

// Path routing with the History API: each page has its own address (bookmarkable, back button).

const listeners = new Set<() => void>();

/** To another page; `replace` takes the current page's place in the history (Back skips it: a page that no longer exists). */
export function navigate(to: string, { replace = false } = {}): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  listeners.forEach((l) => l());
  window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => listeners.forEach((l) => l()));

export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return path;
}

/** An in-app link: a real <a href> (keyboard, middle-click, copy link) that navigates without a reload. */
export function linkClick(e: MouseEvent, to: string): void {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(to);
}
