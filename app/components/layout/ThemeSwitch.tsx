import { useEffect, useLayoutEffect } from "react";
import { useFetcher, useLocation } from "@remix-run/react";
import { THEME_KEY, THEMES, type Theme } from "#app/lib/theme";
import { PATHS } from "./navigation";

/** Shared by every theme switch on the page and by root's optimistic theme. */
export const THEME_FETCHER_KEY = "theme";

const OPTIONS: { value: Theme; label: string; icon: JSX.Element }[] = [
  {
    value: "dark",
    label: "Tema oscuro",
    icon: <path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5Z" />,
  },
  {
    value: "light",
    label: "Tema claro",
    icon: (
      <>
        <circle cx="12" cy="12" r="4" />
        <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
      </>
    ),
  },
  {
    value: "system",
    label: "Tema del sistema",
    icon: (
      <>
        <rect x="3" y="4" width="18" height="12" rx="2" />
        <path d="M8 20h8M12 16v4" />
      </>
    ),
  },
];

export function isTheme(value: unknown): value is Theme {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value);
}

/** The theme being saved right now, if any (for an optimistic switch). */
export function usePendingTheme(): Theme | null {
  const fetcher = useFetcher({ key: THEME_FETCHER_KEY });
  const value = fetcher.formData?.get("theme");
  return isTheme(value) ? value : null;
}

/**
 * Dark / light / system. A real form posting to /preferencias/tema (works
 * without JavaScript: the action sets the cookie and comes back here); with
 * JavaScript a fetcher saves it without reloading the page.
 */
export function ThemeSwitch({ theme, className = "" }: { theme: Theme; className?: string }) {
  const fetcher = useFetcher({ key: THEME_FETCHER_KEY });
  const location = useLocation();
  const pending = fetcher.formData?.get("theme");
  const current = isTheme(pending) ? pending : theme;

  return (
    <form
      method="post"
      action={PATHS.themeAction}
      className={className}
      onSubmit={(event) => {
        const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        const value = submitter?.value;
        if (!isTheme(value)) return;
        event.preventDefault();
        try {
          localStorage.setItem(THEME_KEY, value);
        } catch {
          // Private mode or storage disabled: the cookie is enough.
        }
        fetcher.submit({ theme: value }, { method: "post", action: PATHS.themeAction });
      }}
    >
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <div
        role="group"
        aria-label="Tema"
        className="inline-flex items-center gap-0.5 rounded-full border border-[var(--border)] bg-[var(--surface)] p-0.5"
      >
        {OPTIONS.map((option) => {
          const selected = current === option.value;
          return (
            <button
              key={option.value}
              type="submit"
              name="theme"
              value={option.value}
              aria-pressed={selected}
              aria-label={option.label}
              title={option.label}
              className={[
                "inline-flex size-8 items-center justify-center rounded-full transition-colors",
                selected
                  ? "bg-primary-500 text-black"
                  : "text-[var(--muted)] hover:bg-[var(--bg)] hover:text-[var(--text)]",
              ].join(" ")}
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="size-4"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                strokeLinejoin="round"
              >
                {option.icon}
              </svg>
            </button>
          );
        })}
      </div>
    </form>
  );
}

const useIsomorphicLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/**
 * Keeps <html> in step with the theme after hydration: for "system" it
 * resolves the device's scheme (and follows its changes); it also mirrors the
 * theme into localStorage under the spec's key `theme`.
 */
export function useThemeEffects(theme: Theme) {
  useIsomorphicLayoutEffect(() => {
    try {
      localStorage.setItem(THEME_KEY, theme);
    } catch {
      // Storage unavailable: the cookie is the source of truth anyway.
    }
    if (theme !== "system") return;
    const root = document.documentElement;
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    const apply = () => {
      root.classList.toggle("dark", media.matches);
      root.classList.toggle("light", !media.matches);
    };
    apply();
    media.addEventListener("change", apply);
    return () => media.removeEventListener("change", apply);
  }, [theme]);
}

/** Class on <html> as rendered by the server ("system" is resolved before paint by root's inline script). */
export function themeClass(theme: Theme): string {
  return theme;
}
