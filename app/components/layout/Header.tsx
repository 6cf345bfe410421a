import { Form, Link, NavLink, useLocation } from "@remix-run/react";
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

const iconButton =
  "inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-[var(--muted)] hover:bg-[var(--surface)] hover:text-[var(--text)] aria-[current=page]:text-[var(--text)]";

/** "Buscá un evento": a GET form to the home's search (works without JavaScript). */
function HeaderSearch() {
  return (
    <form method="get" action={PATHS.home} role="search" aria-label="Buscar eventos" className="hidden min-w-0 max-w-xs flex-1 lg:flex">
      <label htmlFor="buscar-encabezado" className="sr-only">
        Buscar eventos
      </label>
      <input
        id="buscar-encabezado"
        type="search"
        name="q"
        placeholder="Buscá un evento, lugar o ciudad"
        enterKeyHint="search"
        autoComplete="off"
        maxLength={100}
        className="min-h-9 w-full rounded-lg border border-[var(--border)] bg-[var(--surface)] px-3 text-sm text-[var(--text)] placeholder:text-[var(--muted)] focus:outline-2 focus:outline-primary-400"
      />
    </form>
  );
}

function TicketIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
      <path d="M3 8a2 2 0 0 0 2-2h14a2 2 0 0 0 2 2v2a2 2 0 0 0 0 4v2a2 2 0 0 0-2 2H5a2 2 0 0 0-2-2v-2a2 2 0 0 0 0-4Z" />
      <path d="M14 6v12" strokeDasharray="2 2" />
    </svg>
  );
}

function SearchIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <circle cx="11" cy="11" r="6.5" />
      <path d="m16 16 4.5 4.5" />
    </svg>
  );
}

/**
 * Top bar. On buyer pages it is a storefront's: menu button (the drawer opens
 * from it at every width), logo, the page links from tablet up, a search box
 * on wide screens, "Mis tickets" and the account (or Ingresar / Crear
 * cuenta); on a phone only icons and one button. In the back office
 * (`docked`) the drawer is always visible from md up, so the menu button and
 * the page links give way to it there, and "Cerrar sesión" moves up here.
 */
export function Header({ user, theme, testMode = false, docked = false }: { user: ShellUser | null; theme: Theme; testMode?: boolean; docked?: boolean }) {
  const { pathname } = useLocation();
  const onHome = pathname === PATHS.home;
  return (
    <header className="sticky top-0 z-40 border-b border-[var(--border)] bg-[var(--bg)]/90 backdrop-blur supports-[backdrop-filter]:bg-[var(--bg)]/75">
      {testMode ? <TestModeBanner /> : null}
      <div className="flex h-header items-center gap-1 px-2 sm:gap-2 sm:px-4">
        <label
          htmlFor={MENU_TOGGLE_ID}
          aria-hidden="true"
          title="Menú"
          className={`menu-button inline-flex size-10 shrink-0 cursor-pointer items-center justify-center rounded-lg hover:bg-[var(--surface)] ${docked ? "md:hidden" : ""}`}
        >
          <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M4 7h16M4 12h16M4 17h16" />
          </svg>
        </label>
        <Logo />
        <nav aria-label="Principal" className={`ml-2 hidden items-center gap-1 sm:flex ${docked ? "md:hidden" : ""}`}>
          {mainLinks(user).map((item) => (
            <NavLink key={item.to} to={item.to} end={item.end} className={headerLink}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex min-w-0 items-center justify-end gap-1 sm:gap-2 lg:flex-1">
          {docked || onHome ? null : <HeaderSearch />}
          {docked || onHome ? null : (
            <Link to={PATHS.home} className={`${iconButton} lg:hidden`} title="Buscar eventos">
              <span className="sr-only">Buscar eventos</span>
              <SearchIcon />
            </Link>
          )}
          <ThemeSwitch theme={theme} className="hidden md:block" />
          {user ? (
            <>
              {docked ? null : (
                <NavLink to={PATHS.myTickets} className={`${iconButton} sm:hidden`} title="Mis tickets">
                  <span className="sr-only">Mis tickets</span>
                  <TicketIcon />
                </NavLink>
              )}
              <Link to={PATHS.myAccount} className={`${outlineButton} inline-flex max-w-[7rem] truncate sm:max-w-[10rem]`} title="Mi cuenta">
                {accountLabel(user)}
              </Link>
              {docked ? <LogoutForm className="hidden md:block" buttonClassName={headerLink} /> : null}
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
