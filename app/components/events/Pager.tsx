import { Link } from "@remix-run/react";

export interface PagerData {
  current: number;
  pages: number;
  previous: string | null;
  next: string | null;
}

const linkClasses =
  "inline-flex min-h-11 items-center rounded-lg border border-[var(--border)] px-4 text-sm font-medium hover:border-primary-500";

/** Plain links (no JavaScript needed): previous, where we are, next. */
export function Pager({ pager }: { pager: PagerData }) {
  if (pager.pages <= 1) return null;
  return (
    <nav aria-label="Páginas de resultados" className="mt-8 flex items-center justify-between gap-3">
      {pager.previous ? (
        <Link to={pager.previous} rel="prev" className={linkClasses}>
          ← Anterior
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-[var(--muted)]">
        Página {pager.current} de {pager.pages}
      </span>
      {pager.next ? (
        <Link to={pager.next} rel="next" className={linkClasses}>
          Siguiente →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
