import type { ReactNode } from "react";

export type TocEntry = { id: string; title: string };

/** Frame for long text pages (/ayuda, /terminos-y-condiciones): title, index and readable body. */
export function ContentPage({
  title,
  lead,
  updated,
  toc,
  children,
}: {
  title: string;
  lead?: ReactNode;
  updated?: string;
  toc: TocEntry[];
  children: ReactNode;
}) {
  return (
    <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <article className="prose-page">
        <header>
          <h1>{title}</h1>
          {lead ? <p className="text-lg text-[var(--muted)]">{lead}</p> : null}
          {updated ? <p className="text-sm text-[var(--muted)]">Última actualización: {updated}</p> : null}
        </header>
        <nav aria-label="En esta página" className="mt-6 rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4">
          <p className="!mt-0 text-sm font-bold">En esta página</p>
          <ol className="text-sm">
            {toc.map((entry) => (
              <li key={entry.id}>
                <a href={`#${entry.id}`}>{entry.title}</a>
              </li>
            ))}
          </ol>
        </nav>
        {children}
      </article>
    </main>
  );
}

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
