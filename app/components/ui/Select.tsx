import type { ReactNode, SelectHTMLAttributes } from "react";
import { describedBy, FieldErrors, fieldInputClasses } from "./Field";

type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & { id: string; name: string; key?: string };

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps {
  label: ReactNode;
  /** Props for the select (for example Conform's `getSelectProps(field)`); `id` is required. */
  selectProps: SelectProps;
  options: readonly SelectOption[];
  /** First, empty choice ("Elegí…"); leave it out when a value is always required and preset. */
  placeholder?: string;
  errors?: string[] | null;
  help?: ReactNode;
  className?: string;
}

/** A native select: works without JavaScript and with every screen reader and phone picker. */
export function SelectField({ label, selectProps, options, placeholder, errors, help, className = "" }: SelectFieldProps) {
  const { key, id, className: selectClassName = "", ...rest } = selectProps;
  const hasError = Boolean(errors?.some(Boolean));
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
      <select
        key={key}
        id={id}
        {...rest}
        className={`${fieldInputClasses} ${selectClassName}`}
        aria-invalid={hasError || undefined}
        aria-describedby={describedBy(id, Boolean(help), hasError)}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}
