import type { ReactNode } from "react";

/** A back-office page: its own <main>, title, optional lead and actions. */
export function BackofficePage({
  title,
  lead,
  actions,
  children,
  narrow = false,
}: {
  title: string;
  lead?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  narrow?: boolean;
}) {
  return (
    <main className={`mx-auto w-full ${narrow ? "max-w-3xl" : "max-w-6xl"} px-4 py-8 sm:px-6`}>
      <header className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">{title}</h1>
          {lead ? <div className="mt-2 max-w-3xl text-[var(--muted)]">{lead}</div> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </header>
      {children}
    </main>
  );
}

/** A card section inside a page. */
export function Card({ title, children, className = "" }: { title?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4 sm:p-6 ${className}`}>
      {title ? <h2 className="mb-4 text-lg font-bold">{title}</h2> : null}
      {children}
    </section>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <div className="rounded-2xl border border-dashed border-[var(--border)] p-8 text-center text-[var(--muted)]">{children}</div>;
}
