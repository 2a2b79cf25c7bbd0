// Which nav item is the current page: a module of its own, free of preact, so unit tests can load it.

/**
 * Whether the nav item leading to `to` is the page at `path`: the uploads list (`/` and `/uploads`)
 * and each upload's page are Uploads', except a new upload's, which has its own item.
 */
export function isCurrentNav(path: string, to: string): boolean {
  if (to === '/') return path === '/' || path === '/uploads' || (path.startsWith('/uploads/') && path !== '/uploads/new');
  return path.startsWith(to);
}
