import type { ButtonHTMLAttributes } from "react";

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

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** Shows the pending label and blocks a second click while the form is being sent. */
  pending?: boolean;
  pendingLabel?: string;
}

export function Button({ variant = "primary", pending = false, pendingLabel, className, children, type = "button", disabled, ...props }: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClasses(variant, className)}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      {...props}
    >
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
}
