import type { InputHTMLAttributes, ReactNode } from "react";

type InputProps = InputHTMLAttributes<HTMLInputElement> & { id: string; name: string; key?: string };

export interface FieldProps {
  label: ReactNode;
  /** Props for the input (for example Conform's `getInputProps(field, { type })`); `id` is required. */
  inputProps: InputProps;
  /** Messages shown under the input; the first one is read out by screen readers. */
  errors?: string[] | null;
  /** Help text under the label. */
  help?: ReactNode;
  className?: string;
}

export const fieldInputClasses =
  "w-full rounded-lg border bg-[var(--bg)] px-3 py-2.5 text-[var(--text)] placeholder:text-[var(--muted)] " +
  "focus:outline-2 focus:outline-offset-0 focus:outline-primary-400 aria-[invalid=true]:border-red-500 border-[var(--border)]";

/** The ids a described control points to (help first, then the error). */
export function describedBy(id: string, hasHelp: boolean, hasError: boolean): string | undefined {
  const ids = [hasHelp ? `${id}-help` : null, hasError ? `${id}-error` : null].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

export function FieldErrors({ id, errors }: { id: string; errors?: string[] | null }) {
  const first = errors?.find(Boolean);
  return (
    <p id={id} className="min-h-5 text-sm text-red-700 dark:text-red-400" aria-live="polite">
      {first ?? null}
    </p>
  );
}

/**
 * What every labelled control shares: label, optional help, the control, and
 * its error text, tied together with `for`/`id` and `aria-describedby`.
 */
export function FieldFrame({
  id,
  label,
  help,
  errors,
  className = "",
  children,
}: {
  id: string;
  label: ReactNode;
  help?: ReactNode;
  errors?: string[] | null;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {help ? (
        <p id={`${id}-help`} className="text-xs text-[var(--muted)]">
          {help}
        </p>
      ) : null}
      {children}
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}

/** ARIA attributes of a control inside a FieldFrame. */
export function controlAria(id: string, help: ReactNode | undefined, errors: string[] | null | undefined) {
  const hasError = Boolean(errors?.some(Boolean));
  return { "aria-invalid": hasError || undefined, "aria-describedby": describedBy(id, Boolean(help), hasError) };
}

/** Label + input + error text. */
export function Field({ label, inputProps, errors, help, className = "" }: FieldProps) {
  // `key` belongs to the element, not to the props spread on it.
  const { key, id, className: inputClassName = "", ...rest } = inputProps;
  return (
    <FieldFrame id={id} label={label} help={help} errors={errors} className={className}>
      <input key={key} id={id} {...rest} className={`${fieldInputClasses} ${inputClassName}`} {...controlAria(id, help, errors)} />
    </FieldFrame>
  );
}
