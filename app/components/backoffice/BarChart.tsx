/**
 * A bar chart drawn on the server as SVG (no chart library reaches any page):
 * one bar per row, the value written at its end. The numbers are also in the
 * table the page shows next to it, for screen readers and copying.
 */
export function BarChart({ title, bars }: { title: string; bars: { label: string; value: number; valueLabel: string }[] }) {
  const rowHeight = 28;
  const labelWidth = 120;
  const width = 480;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const height = bars.length * rowHeight + 8;
  return (
    <svg viewBox={`0 0 ${width} ${height}`} width="100%" role="img" aria-label={title} className="max-w-full text-[var(--text)]">
      {bars.map((bar, i) => {
        const y = i * rowHeight + 4;
        const barWidth = Math.max(2, ((width - labelWidth - 90) * bar.value) / max);
        return (
          <g key={bar.label}>
            <text x={0} y={y + 17} fontSize="12" fill="currentColor">
              {bar.label.length > 18 ? `${bar.label.slice(0, 17)}…` : bar.label}
            </text>
            <rect x={labelWidth} y={y + 4} width={barWidth} height={rowHeight - 10} rx={3} className="fill-primary-500" />
            <text x={labelWidth + barWidth + 6} y={y + 17} fontSize="12" fill="currentColor">
              {bar.valueLabel}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
