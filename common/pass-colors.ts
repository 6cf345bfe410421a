/**
 * The organizer's colours on its wallet passes (decision 221): a background and a text colour, both or
 * neither, with the contrast WCAG 2.2 AA asks of normal text (4.5:1), since the pass shows small labels.
 * Pure, so the back office's form, the domain and GraphQL apply the same rule.
 */

/** WCAG AA for normal-size text. */
export const PASS_COLORS_MIN_CONTRAST = 4.5;

export const PASS_COLOR_MESSAGES = {
  format: "Escribí el color como #rrggbb (por ejemplo, #1a2b3c).",
  both: "Elegí los dos colores, el de fondo y el del texto, o dejá los dos vacíos.",
  contrast: (ratio: number) =>
    `El texto no se lee bien sobre ese fondo: el contraste es ${ratio.toFixed(2).replace(".", ",")}:1 y tiene que ser de al menos 4,5:1. Oscurecé uno o aclará el otro.`,
} as const;

/** "#1A2b3c" or "1a2b3c" → "#1a2b3c"; null when it is not a six-digit hex colour. */
export function normalizeHexColor(value: string): string | null {
  const match = /^#?([0-9a-f]{6})$/i.exec(value.trim());
  return match ? `#${match[1].toLowerCase()}` : null;
}

/** WCAG's relative luminance of "#rrggbb". */
export function relativeLuminance(hex: string): number {
  const n = Number.parseInt(hex.replace("#", ""), 16);
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** WCAG's contrast ratio between two "#rrggbb" colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export interface PassColors {
  background: string;
  text: string;
}

export type PassColorsCheck =
  | { ok: true; colors: PassColors | null }
  | { ok: false; field: "passBackgroundColor" | "passTextColor"; message: string };

/**
 * The form's two fields as typed: both empty is "Tribuna's colours" (null); one alone, a bad format or
 * a contrast under 4.5:1 is refused with the message for the field to fix.
 */
export function checkPassColors(background: string | null | undefined, text: string | null | undefined): PassColorsCheck {
  const bg = background?.trim() ?? "";
  const fg = text?.trim() ?? "";
  if (!bg && !fg) return { ok: true, colors: null };
  if (!bg) return { ok: false, field: "passBackgroundColor", message: PASS_COLOR_MESSAGES.both };
  if (!fg) return { ok: false, field: "passTextColor", message: PASS_COLOR_MESSAGES.both };
  const nb = normalizeHexColor(bg);
  if (!nb) return { ok: false, field: "passBackgroundColor", message: PASS_COLOR_MESSAGES.format };
  const nt = normalizeHexColor(fg);
  if (!nt) return { ok: false, field: "passTextColor", message: PASS_COLOR_MESSAGES.format };
  const ratio = contrastRatio(nb, nt);
  if (ratio < PASS_COLORS_MIN_CONTRAST) return { ok: false, field: "passTextColor", message: PASS_COLOR_MESSAGES.contrast(ratio) };
  return { ok: true, colors: { background: nb, text: nt } };
}
