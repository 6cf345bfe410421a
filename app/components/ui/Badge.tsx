import type { ReactNode } from "react";

export type BadgeTone = "neutral" | "primary" | "secondary" | "success" | "warning" | "danger";

const TONES: Record<BadgeTone, string> = {
  neutral: "border-[var(--border)] bg-[var(--surface)] text-[var(--muted)]",
  primary: "border-primary-500/40 bg-primary-500/15 text-primary-700 dark:text-primary-300",
  secondary: "border-secondary-500/40 bg-secondary-500/15 text-secondary-700 dark:text-secondary-300",
  success: "border-green-500/40 bg-green-500/15 text-green-800 dark:text-green-300",
  warning: "border-amber-500/40 bg-amber-500/15 text-amber-800 dark:text-amber-300",
  danger: "border-red-500/40 bg-red-500/15 text-red-700 dark:text-red-300",
};

/** A small status label ("Activo", "Pausado", "Aprobada"…). */
export function Badge({
  tone = "neutral",
  children,
  className = "",
  title,
}: {
  tone?: BadgeTone;
  children: ReactNode;
  className?: string;
  title?: string;
}) {
  return (
    <span
      title={title}
      data-tone={tone}
      className={`inline-flex items-center gap-1 whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium ${TONES[tone]} ${className}`}
    >
      {children}
    </span>
  );
}
