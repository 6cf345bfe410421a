import type { CSSProperties, ReactNode } from "react";

/**
 * Scroll shadows (no JavaScript): covers the colour of the box scroll with the content, shadows stay
 * at the edges, so a shadow shows on each side where there is more to see.
 */
function shadows(cover: string): CSSProperties {
  return {
    background: [
      `linear-gradient(to right, ${cover} 30%, transparent) left center / 2.5rem 100% no-repeat local`,
      `linear-gradient(to left, ${cover} 30%, transparent) right center / 2.5rem 100% no-repeat local`,
      "radial-gradient(farthest-side at 0 50%, rgb(0 0 0 / 0.35), transparent) left center / 0.875rem 100% no-repeat scroll",
      "radial-gradient(farthest-side at 100% 50%, rgb(0 0 0 / 0.35), transparent) right center / 0.875rem 100% no-repeat scroll",
      cover,
    ].join(", "),
  };
}

/**
 * A table wider than a phone: it scrolls sideways inside its own box (positioned, so a visually
 * hidden header never widens the page), keyboard-scrollable (a labelled region in the tab order),
 * with shadows on the sides that still hide columns and, below 600 px, a line saying so.
 * `surface`: the box sits on a card (its cover colour is the card's); `framed`: with a rounded border.
 */
export function ScrollTable({
  label,
  children,
  className = "",
  surface = false,
  framed = true,
}: {
  label: string;
  children: ReactNode;
  className?: string;
  surface?: boolean;
  framed?: boolean;
}) {
  return (
    <div className={className}>
      <p className="mb-2 text-xs text-[var(--muted)] sm:hidden" aria-hidden="true">
        Deslizá la tabla para ver todas las columnas →
      </p>
      <div role="region" aria-label={label} tabIndex={0} className={`relative overflow-x-auto ${framed ? "rounded-2xl border border-[var(--border)]" : ""}`} style={shadows(surface ? "var(--surface)" : "var(--bg)")}>
        {children}
      </div>
    </div>
  );
}
