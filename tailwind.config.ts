/**
 * The theme's tokens for Tailwind (decisions 111 and 176). Tailwind 4 loads this file from app/tailwind.css (`@config`) for
 * its utilities (`bg-primary-600`, `md:`, `w-drawer`…) and the plugin below writes the same values as CSS variables
 * (`--color-*`, `--spacing-*`, `--font-sans` and the light/dark surfaces `--bg`, `--text`…). The colours and the font
 * come from common/brand.ts, which the server's renderers (emails, PDF tickets, posters) import too: the server never
 * imports this build file.
 */
import type { Config } from "tailwindcss";
import type { PluginAPI } from "tailwindcss/plugin";
import { brand, fonts, primary, secondary, surfaces } from "./common/brand";

/** Breakpoints of the spec: 600 px (`sm`) and 900 px (`md`, where the back office's drawer stays open); Tailwind's `lg` and up stay. */
const breakpoints = { sm: "600px", md: "900px" } as const;

const spacing = {
  /** The spec's drawer width. */
  drawer: "270px",
  header: "4rem",
  /** The "Modo de prueba" strip on top of the header: 0 unless payments are simulated (root sets it). */
  "test-banner": "0px",
} as const;

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
