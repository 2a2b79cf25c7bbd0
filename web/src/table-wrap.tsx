import type { ComponentChildren } from 'preact';

/**
 * The box a table scrolls sideways in on a narrow screen. A scrolling region must be reachable by
 * keyboard (axe-core's scrollable-region-focusable): it takes focus, and is named for screen readers.
 */
export function TableWrap({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
