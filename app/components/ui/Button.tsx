import type { ButtonHTMLAttributes } from "react";

import { buttonClasses, type ButtonVariant } from "#common/button-classes";

export { buttonClasses, type ButtonVariant };

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
