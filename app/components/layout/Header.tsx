import { Form, Link, NavLink } from "@remix-run/react";
import type { Theme } from "#app/lib/theme";
import { accountLabel, mainLinks, PATHS, type ShellUser } from "./navigation";
import { ThemeSwitch } from "./ThemeSwitch";
import { TestModeBanner } from "./TestModeBanner";

export const MENU_TOGGLE_ID = "menu-toggle";

export function Logo() {
  return (
    <Link to={PATHS.home} className="inline-flex items-center gap-2 rounded-md text-xl font-bold tracking-tight">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-7">
        <rect width="32" height="32" rx="8" className="fill-primary-500" />
        <path d="M8 11h16M16 11v13" stroke="#0f1115" strokeWidth="3.5" strokeLinecap="round" />
        <circle cx="24" cy="22" r="3" className="fill-secondary-500" />
      </svg>
      <span>Tribuna</span>
    </Link>
  );
}

export function LogoutForm({ className = "", buttonClassName = "" }: { className?: string; buttonClassName?: string }) {
  return (
    <Form method="post" action={PATHS.signOut} className={className}>
      <button type="submit" className={buttonClassName}>
        Cerrar sesión
      </button>
    </Form>
  );
}

const headerLink =
  "inline-flex min-h-9 items-center whitespace-nowrap rounded-lg px-3 text-sm font-medium text-[var(--muted)] hover:bg-[var(--surface)] hover:text-[var(--text)] aria-[current=page]:text-[var(--text)]";
const primaryButton =
  "min-h-9 items-center rounded-lg bg-primary-500 px-3 text-sm font-bold text-black hover:bg-primary-400";
const outlineButton =
  "min-h-9 items-center rounded-lg border border-[var(--border)] px-3 text-sm font-medium hover:bg-[var(--surface)]";

/**
 * Top bar. On phones: menu button, logo and the account's first action; the
 * rest lives in the drawer. From tablet (sm) up: the page links too. From
 * desktop (md) up the drawer is always visible, so the header's page links
 * give way to it, and the theme switch and "Cerrar sesión" move up here.
 */
export function Header({ user, theme, testMode = false }: { user: ShellUser | null; theme: Theme; testMode?: boolean }) {
  return (
    <header className="sticky top-0 z-40 border-b border-[var(--border)] bg-[var(--bg)]/90 backdrop-blur supports-[backdrop-filter]:bg-[var(--bg)]/75">
      {testMode ? <TestModeBanner /> : null}
      <div className="flex h-header items-center gap-2 px-3 sm:px-4">
        <label
          htmlFor={MENU_TOGGLE_ID}
          aria-hidden="true"
          title="Menú"
          className="menu-button -ml-1 inline-flex size-10 cursor-pointer items-center justify-center rounded-lg hover:bg-[var(--surface)] md:hidden"
        >
          <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M4 7h16M4 12h16M4 17h16" />
          </svg>
        </label>
        <Logo />
        <nav aria-label="Principal" className="ml-2 hidden items-center gap-1 sm:flex md:hidden">
          {mainLinks(user).map((item) => (
            <NavLink key={item.to} to={item.to} end={item.end} className={headerLink}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <ThemeSwitch theme={theme} className="hidden md:block" />
          {user ? (
            <>
              <Link to={PATHS.myAccount} className={`${outlineButton} inline-flex max-w-[10rem] truncate`} title="Mi cuenta">
                {accountLabel(user)}
              </Link>
              <LogoutForm className="hidden md:block" buttonClassName={headerLink} />
            </>
          ) : (
            <>
              <Link to={PATHS.signIn} className={`${outlineButton} inline-flex`}>
                Ingresar
              </Link>
              <Link to={PATHS.signUp} className={`${primaryButton} hidden sm:inline-flex`}>
                Crear cuenta
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
