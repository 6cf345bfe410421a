import type { InputHTMLAttributes, ReactNode } from "react";
import { DateField, type DateKind } from "#app/components/ui/DateInput";
import { useFieldState } from "./forms";

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id" | "defaultValue" | "type" | "min" | "max"> & {
  name: string;
  label: ReactNode;
  help?: ReactNode;
  className?: string;
  /** False where one line near the fields already says the format (several date fields side by side). */
  formatHint?: boolean;
};

function ScopedDateInput({ kind, name, label, help, className, formatHint, ...rest }: Props & { kind: DateKind }) {
  const { id, value, errors } = useFieldState(name);
  return (
    <DateField kind={kind} label={label} help={help} formatHint={formatHint} errors={errors} className={className} inputProps={{ id, name, defaultValue: value ?? "", ...rest }} />
  );
}

/**
 * Back-office date-time field (dd/mm/aaaa hh:mm, hora de Buenos Aires) inside a
 * `FormScope`: like `TextInput`, it reads its value and messages by name; a
 * saved ISO value is shown as dd/mm/aaaa hh:mm.
 */
export function DateTimeInput(props: Props) {
  return <ScopedDateInput kind="datetime" {...props} />;
}
