import type { ReactNode, SelectHTMLAttributes } from "react";
import { controlAria, FieldFrame, fieldInputClasses } from "./Field";

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
  return (
    <FieldFrame id={id} label={label} help={help} errors={errors} className={className}>
      <select key={key} id={id} {...rest} className={`${fieldInputClasses} ${selectClassName}`} {...controlAria(id, help, errors)}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
