import { useEffect, useRef, type ReactNode } from "react";
import { Link, useLocation } from "@remix-run/react";
import type { Theme } from "#app/lib/theme";
import { Drawer } from "./Drawer";
import { Header, MENU_TOGGLE_ID } from "./Header";
import { isBackOffice, legalLinks, PATHS, type ShellUser } from "./navigation";
import { NavigationProgress } from "./NavigationProgress";

/**
 * The page frame: loading bar, header, drawer, content and footer.
 *
 * Buyer pages are a storefront (header, content, footer): the drawer is a
 * slide-over opened by the header's menu button at every width. In the back
 * office (/organizacion…, /admin…) it stays open beside the content from md
 * up ("docked"), as the spec's 270 px drawer.
 *
 * The drawer opens without JavaScript: the #menu-toggle checkbox comes first
 * and the drawer and backdrop follow it (`peer-checked`). With JavaScript it
 * also closes on navigation and with Escape.
 */
export function AppShell({ user, theme, testMode = false, children }: { user: ShellUser | null; theme: Theme; testMode?: boolean; children: ReactNode }) {
  const toggle = useRef<HTMLInputElement>(null);
  const location = useLocation();
  const docked = isBackOffice(location.pathname);

  useEffect(() => {
    if (toggle.current) toggle.current.checked = false;
  }, [location.key]);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === "Escape" && toggle.current?.checked) {
        toggle.current.checked = false;
        toggle.current.focus();
      }
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#contenido"
        className="sr-only z-[100] rounded-lg bg-primary-500 px-4 py-2 font-bold text-black focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        Saltar al contenido
      </a>
      <NavigationProgress />
      <input
        ref={toggle}
        id={MENU_TOGGLE_ID}
        type="checkbox"
        className={`peer sr-only ${docked ? "md:hidden" : ""}`}
        data-docked={docked ? "" : undefined}
        aria-label="Menú"
        aria-controls="menu"
      />
      <Header user={user} theme={theme} testMode={testMode} docked={docked} />
      <label
        htmlFor={MENU_TOGGLE_ID}
        aria-hidden="true"
        className={`fixed inset-0 z-[45] hidden cursor-default bg-black/50 peer-checked:block ${docked ? "md:hidden!" : ""}`}
      />
      <Drawer user={user} theme={theme} docked={docked} />
      <div className={`flex flex-1 flex-col ${docked ? "md:pl-drawer" : ""}`}>
        <div id="contenido" className="flex-1">
          {children}
        </div>
        <Footer docked={docked} />
      </div>
    </div>
  );
}

function Footer({ docked }: { docked: boolean }) {
  return (
    <footer className="border-t border-[var(--border)] px-4 py-6 text-sm text-[var(--muted)] sm:px-6">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-4 gap-y-2">
        <span>© {new Date().getFullYear()} Tribuna · Entradas para eventos en Argentina</span>
        <a href="mailto:ayuda@tribuna.ar" className="hover:text-[var(--text)]">
          ayuda@tribuna.ar
        </a>
        {/* In the back office, from md up, these two are always visible in the drawer. */}
        {legalLinks().map((item) => (
          <Link
            key={item.to}
            to={item.to}
            className={`hover:text-[var(--text)] ${docked ? "md:hidden" : ""} ${item.to === PATHS.refunds ? "font-bold text-[var(--text)]" : ""}`}
          >
            {item.label}
          </Link>
        ))}
      </div>
    </footer>
  );
}
