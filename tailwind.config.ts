/**
 * The theme's tokens, in one place (decision 111). Tailwind 4 loads this file from app/tailwind.css (`@config`) for its
 * utilities (`bg-primary-600`, `md:`, `w-drawer`…) and the plugin below writes the same values as CSS variables (`--color-*`,
 * `--spacing-*`, `--font-sans` and the light/dark surfaces `--bg`, `--text`…). Server-side renderers (emails, PDF tickets,
 * generated posters) import `brand` from here instead of their own colours.
 *
 * Only type imports from tailwindcss: the server imports this file at runtime, and tailwindcss is a dev dependency.
 */
import type { Config } from "tailwindcss";
import type { PluginAPI } from "tailwindcss/plugin";

/** Teal: the brand's primary scale. */
export const primary = {
  50: "#f0fdfa",
  100: "#ccfbf1",
  200: "#99f6e4",
  300: "#5eead4",
  400: "#2dd4bf",
  500: "#14b8a6",
  600: "#0d9488",
  700: "#0f766e",
  800: "#115e59",
  900: "#134e4a",
} as const;

/** Violet: the secondary scale. */
export const secondary = {
  300: "#d8b4fe",
  400: "#c084fc",
  500: "#a855f7",
  600: "#9333ea",
  700: "#7e22ce",
} as const;

/** The surfaces of each theme, as CSS variables (`var(--bg)`…) on `<html>`; dark is the default theme. */
export const surfaces = {
  light: { bg: "#ffffff", surface: "#f4f5f7", text: "#111418", muted: "#5b6270", border: "#d9dde3", accent: primary[700] },
  dark: { bg: "#0f1115", surface: "#171a21", text: "#eef0f3", muted: "#9aa1ad", border: "#2a2f3a", accent: primary[400] },
} as const;

export const fonts = { sans: ["Space Grotesk", "ui-sans-serif", "system-ui", "sans-serif"] } as const;

/** Breakpoints of the spec: 600 px (`sm`) and 900 px (`md`, where the back office's drawer stays open); Tailwind's `lg` and up stay. */
export const breakpoints = { sm: "600px", md: "900px" } as const;

export const spacing = {
  /** The spec's drawer width. */
  drawer: "270px",
  header: "4rem",
  /** The "Modo de prueba" strip on top of the header: 0 unless payments are simulated (root sets it). */
  "test-banner": "0px",
} as const;

/**
 * What renderers outside the browser need: hex colours (emails, posters) and the font family. `ink`/`paper` are the
 * printed ticket's text and background; `testMode` is the "Modo de prueba" strip.
 */
export const brand = {
  name: "Tribuna",
  primary,
  secondary,
  surfaces,
  font: fonts.sans[0],
  fontStack: fonts.sans.map((f) => (f.includes(" ") ? `"${f}"` : f)).join(", "),
  ink: "#111418",
  paper: "#ffffff",
  rule: "#d9dde3",
  testMode: { background: "#fcd34d", text: "#111111" },
  /** Emails: a dark card on a dark page (mail clients ignore CSS variables and media queries), tickets on white. */
  email: {
    page: surfaces.dark.bg,
    card: surfaces.dark.surface,
    text: "#e6e6e6",
    heading: "#ffffff",
    muted: "#8a8f98",
    link: primary[500],
    button: primary[500],
    buttonText: surfaces.dark.bg,
    ticket: "#ffffff",
    ticketText: "#111111",
    ticketMuted: "#555555",
  },
} as const;

export type Brand = typeof brand;

/** `#14b8a6` → `[0.078, 0.722, 0.651]`, for pdf-lib's `rgb()`. */
export function hexToRgbUnit(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.replace("#", ""), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

function surfaceVars(s: (typeof surfaces)["light" | "dark"], scheme: "light" | "dark") {
  return { "--bg": s.bg, "--surface": s.surface, "--text": s.text, "--muted": s.muted, "--border": s.border, "--accent": s.accent, "color-scheme": scheme };
}

/** The tokens as CSS variables: the scales and spacing for hand-written CSS and arbitrary values, and each theme's surfaces. */
function tokensAsVariables({ addBase }: PluginAPI) {
  const scale = (name: string, values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [`--color-${name}-${k}`, v]));
  addBase({
    ":root": {
      "--font-sans": brand.fontStack,
      ...scale("primary", primary),
      ...scale("secondary", secondary),
      ...Object.fromEntries(Object.entries(spacing).map(([k, v]) => [`--spacing-${k}`, v])),
      ...surfaceVars(surfaces.light, "light"),
    },
    ":root.dark": surfaceVars(surfaces.dark, "dark"),
    "@media (prefers-color-scheme: dark)": { ":root.system:not(.light)": surfaceVars(surfaces.dark, "dark") },
  });
}

export default {
  theme: {
    extend: {
      colors: { primary, secondary },
      fontFamily: { sans: [...fonts.sans] },
      screens: breakpoints,
      // Utilities read the variables (h-test-banner → var(--spacing-test-banner)), so a page can change one at run time:
      // root.tsx sets the test banner's height only when payments are simulated.
      spacing: Object.fromEntries(Object.keys(spacing).map((k) => [k, `var(--spacing-${k})`])),
    },
  },
  plugins: [tokensAsVariables],
} satisfies Config;
