/** A big count on an event's live page (queue, waiting list, resale), inside a `<dl>`. */
export function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl border border-[var(--border)] p-3">
      <dt className="text-sm text-[var(--muted)]">{label}</dt>
      <dd className="text-3xl font-black tabular-nums">{value.toLocaleString("es-AR")}</dd>
    </div>
  );
}
