import { Link } from "@remix-run/react";

/** "← Anteriores · Página 2 de 5 · Siguientes →" under a paged list; `href(page)` builds the link of a 1-based page. */
export function Pager({ page, pages, href }: { page: number; pages: number; href: (page: number) => string }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Páginas" className="mt-4 flex items-center justify-between gap-2 text-sm">
      {page > 1 ? (
        <Link to={href(page - 1)} className="text-primary-700 hover:underline dark:text-primary-400">
          ← Anteriores
        </Link>
      ) : (
        <span />
      )}
      <span>
        Página {page} de {pages}
      </span>
      {page < pages ? (
        <Link to={href(page + 1)} className="text-primary-700 hover:underline dark:text-primary-400">
          Siguientes →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
