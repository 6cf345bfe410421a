/**
 * The brand's colours and type, in one place for every renderer (decision 176): Tailwind's theme
 * (tailwind.config.ts imports them), the emails, the PDF tickets, the server's own error pages and the demo's
 * posters. Plain values with no import, so both the server and the build can read them.
 */

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

/** `#14b8a6` → `[0.078, 0.722, 0.651]`, for pdf-lib's `rgb()`. */
export function hexToRgbUnit(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.replace("#", ""), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}
