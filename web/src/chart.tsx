import { num } from './format';

/**
 * Horizontal bars of tier counts, for the eye (the same numbers are a table for everyone). Drawn
 * with HTML rather than a scaled SVG, so its words keep the page's size: an SVG scaled to a
 * phone's width shrank them to about 7 px; on a phone each label sits above its bar.
 */
export function TierChart({ counts, order, title }: { counts: Record<string, number>; order: readonly string[]; title: string }) {
  const keys = [...order.filter((k) => k in counts), ...Object.keys(counts).filter((k) => !order.includes(k))];
  const max = Math.max(1, ...keys.map((k) => counts[k] ?? 0));
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div class="bars" role="img" aria-label={`${title}: ${keys.map((k) => `${k} ${counts[k] ?? 0}`).join(', ')}`}>
        {keys.map((k, i) => (
          <div key={k} class="bar-row">
            <span class="chart-label">{k}</span>
            <span class="bar-track">
              {/* At least a sliver, so a tier with 0 still shows where its bar would be. */}
              <span class={`bar bar-${i % 9}`} style={{ width: `${Math.max(((counts[k] ?? 0) / max) * 100, 0.4)}%` }} />
            </span>
            <span class="chart-value">{num(counts[k] ?? 0)}</span>
          </div>
        ))}
      </div>
    </figure>
  );
}
