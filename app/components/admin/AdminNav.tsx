import { NavLink } from "@remix-run/react";

/** The platform team's screens (docs/admin.md), in the order of the nav. */
export const ADMIN_LINKS = [
  { to: "/admin/organizaciones", label: "Organizaciones" },
  { to: "/admin/extracciones", label: "Extracciones" },
  { to: "/admin/devoluciones", label: "Devoluciones" },
  { to: "/admin/facturas", label: "Facturas" },
] as const;

/** The shared nav at the top of every /admin page: Organizaciones · Extracciones · Devoluciones · Facturas. */
export function AdminNav() {
  return (
    <nav aria-label="Equipo de Tribuna" className="-mx-1 flex flex-wrap items-center gap-1 border-b border-[var(--border)] pb-3 text-sm">
      <span className="px-1 text-xs font-bold uppercase tracking-wide text-[var(--muted)]">Equipo de Tribuna</span>
      {ADMIN_LINKS.map((link, i) => (
        <span key={link.to} className="flex items-center gap-1">
          {i > 0 ? (
            <span aria-hidden="true" className="text-[var(--muted)]">
              ·
            </span>
          ) : null}
          <NavLink
            to={link.to}
            className={({ isActive }) =>
              `rounded-lg px-2 py-1 ${isActive ? "bg-[var(--surface)] font-bold text-[var(--text)]" : "text-primary-700 hover:underline dark:text-primary-400"}`
            }
          >
            {link.label}
          </NavLink>
        </span>
      ))}
    </nav>
  );
}

export { Pager as AdminPager } from "#app/components/ui/Pager";

/** Table classes shared by the admin screens: scrolls sideways on a phone, readable in both themes. */
export const adminTable = {
  wrapper: "relative overflow-x-auto rounded-2xl border border-[var(--border)]",
  head: "bg-[var(--surface)] text-xs uppercase tracking-wide text-[var(--muted)]",
  body: "divide-y divide-[var(--border)]",
  th: "px-3 py-2 whitespace-nowrap",
  td: "px-3 py-2 align-top",
} as const;
