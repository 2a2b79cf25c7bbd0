import { num } from './format';

/** Horizontal bars of tier counts: an SVG for the eye and the same numbers as a table for everyone. */
export function TierChart({ counts, order, title }: { counts: Record<string, number>; order: readonly string[]; title: string }) {
  const keys = [...order.filter((k) => k in counts), ...Object.keys(counts).filter((k) => !order.includes(k))];
  const max = Math.max(1, ...keys.map((k) => counts[k] ?? 0));
  const row = 28;
  const labelW = 270;
  const barW = 300;
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${labelW + barW + 80} ${keys.length * row + 8}`} role="img" aria-label={`${title}: ${keys.map((k) => `${k} ${counts[k] ?? 0}`).join(', ')}`}>
        {keys.map((k, i) => {
          const w = Math.round(((counts[k] ?? 0) / max) * barW);
          return (
            <g key={k} transform={`translate(0 ${i * row + 4})`}>
              <text x={labelW - 8} y={18} text-anchor="end" class="chart-label">
                {k}
              </text>
              <rect x={labelW} y={4} width={Math.max(w, 1)} height={row - 10} rx={3} class={`bar bar-${i % 9}`} />
              <text x={labelW + Math.max(w, 1) + 6} y={18} class="chart-value">
                {num(counts[k] ?? 0)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
