import { Link, NavLink } from "@remix-run/react";
import type { Theme } from "#app/lib/theme";
import { MENU_TOGGLE_ID, LogoutForm } from "./Header";
import { accountLabel, legalLinks, mainLinks, PATHS, roleLinks, type NavItem, type ShellUser } from "./navigation";
import { ThemeSwitch } from "./ThemeSwitch";

const itemClass =
  "flex min-h-10 items-center rounded-lg px-3 text-sm font-medium text-[var(--muted)] hover:bg-[var(--surface)] hover:text-[var(--text)] aria-[current=page]:bg-primary-500/15 aria-[current=page]:text-[var(--text)]";

function Section({ title, items }: { title?: string; items: NavItem[] }) {
  if (items.length === 0) return null;
  return (
    <div className="py-2">
      {title ? <p className="px-3 pb-1 text-xs font-bold uppercase tracking-wide text-[var(--muted)]">{title}</p> : null}
      <ul>
        {items.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} end={item.end} className={itemClass}>
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The 270px drawer: a slide-over opened by the header's menu button; in the
 * back office (`docked`) fixed beside the content from md (900px) up. It is
 * driven by the #menu-toggle checkbox that precedes it (`peer-checked`), so
 * it opens and closes without JavaScript.
 */
export function Drawer({ user, theme, docked = false }: { user: ShellUser | null; theme: Theme; docked?: boolean }) {
  // What only the slide-over shows (its title bar, the account and the theme): hidden where the drawer is docked.
  const slideOverOnly = docked ? "md:hidden" : "";
  return (
    <aside
      id="menu"
      aria-label="Menú"
      className={[
        "fixed inset-y-0 left-0 z-50 flex w-drawer flex-col overflow-y-auto border-r border-[var(--border)] bg-[var(--bg)]",
        "invisible -translate-x-full transition-[transform,visibility] duration-200",
        "peer-checked:visible peer-checked:translate-x-0 peer-checked:shadow-2xl",
        docked ? "md:visible md:top-[calc(var(--spacing-header)+var(--spacing-test-banner))] md:z-30 md:translate-x-0 md:shadow-none" : "",
      ].join(" ")}
    >
      <div className={`flex h-header shrink-0 items-center justify-between border-b border-[var(--border)] px-4 ${slideOverOnly}`}>
        <span className="text-lg font-bold">Menú</span>
        <label
          htmlFor={MENU_TOGGLE_ID}
          title="Cerrar menú"
          className="inline-flex size-10 cursor-pointer items-center justify-center rounded-lg hover:bg-[var(--surface)]"
        >
          <span className="sr-only">Cerrar menú</span>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </label>
      </div>
      <nav aria-label="Secciones" className="flex-1 px-3 py-2">
        <Section items={mainLinks(user)} />
        {/* In the back office the account actions live in the header from md up. */}
        <div className={`border-t border-[var(--border)] py-2 ${slideOverOnly}`}>
          {user ? (
            <ul>
              <li>
                <Link to={PATHS.myAccount} className={itemClass}>
                  {user.firstName ? `${accountLabel(user)} · Mi cuenta` : "Mi cuenta"}
                </Link>
              </li>
              <li>
                <LogoutForm buttonClassName={`${itemClass} w-full text-left`} />
              </li>
            </ul>
          ) : (
            <ul>
              <li>
                <Link to={PATHS.signIn} className={itemClass}>
                  Ingresar
                </Link>
              </li>
              <li>
                <Link to={PATHS.signUp} className={itemClass}>
                  Crear cuenta
                </Link>
              </li>
            </ul>
          )}
        </div>
        {roleLinks(user).length > 0 ? (
          <div className="border-t border-[var(--border)]">
            <Section title="Gestión" items={roleLinks(user)} />
          </div>
        ) : null}
      </nav>
      <div className="border-t border-[var(--border)] px-3 py-3">
        <div className={`flex items-center justify-between px-3 pb-2 ${slideOverOnly}`}>
          <span className="text-sm text-[var(--muted)]">Tema</span>
          <ThemeSwitch theme={theme} />
        </div>
        <ul>
          {legalLinks().map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} className={`${itemClass} text-xs`}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
    </aside>
  );
}
