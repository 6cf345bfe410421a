/**
 * The buttons' look (Tailwind classes compiled into the app's CSS), for React (app/components/ui/Button.tsx) and
 * for the HTML the server writes by hand (the queue's light page, server/queue/light-page.ts).
 */
export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";

const base =
  "inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-bold transition-colors " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-400 " +
  "disabled:cursor-not-allowed disabled:opacity-60";

const variants: Record<ButtonVariant, string> = {
  primary: "bg-primary-500 text-black hover:bg-primary-400",
  secondary: "border border-[var(--border)] bg-[var(--surface)] text-[var(--text)] hover:border-primary-500",
  ghost: "text-[var(--accent)] hover:bg-[var(--surface)]",
  danger: "bg-red-600 text-white hover:bg-red-500",
};

/** The same look for links that act as buttons (`<Link className={buttonClasses()}>`). */
export function buttonClasses(variant: ButtonVariant = "primary", className = ""): string {
  return `${base} ${variants[variant]} ${className}`.trim();
}

/** The banner every page shows while payments are simulated, and its fixed colours (readable in both themes). */
export const TEST_MODE_BANNER = {
  text: "Modo de prueba: los pagos son simulados",
  className: "flex h-test-banner items-center justify-center bg-amber-300 px-3 text-center text-xs font-semibold text-black sm:text-sm",
} as const;
