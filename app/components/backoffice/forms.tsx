import { createContext, useContext, useRef, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";
import { FileInput } from "#app/components/ui/FileInput";
import { useFormAction, useNavigation } from "@remix-run/react";
import { controlAria, describedBy, Field, FieldErrors, FieldFrame, fieldInputClasses } from "#app/components/ui/Field";
import { SelectField, type SelectOption } from "#app/components/ui/Select";
import type { FormReply } from "./types";

/**
 * Back-office form fields. A form scope holds what the page starts with
 * (`defaults`) and the action's last answer (`reply`); each field reads its
 * value and its messages by name. Names follow the domain's nesting
 * (`dates[0].startsAt`) and errors come back under the domain's key
 * (`dates.0.startsAt`), so a message lands next to its input, also after a
 * post without JavaScript.
 */

type Scope = { values: Record<string, string>; errors: Record<string, string[]>; idPrefix: string };

const ScopeContext = createContext<Scope>({ values: {}, errors: {}, idPrefix: "f" });

/** `dates[0].startsAt` → `dates.0.startsAt` (the domain's error key). */
export function errorKey(name: string): string {
  return name.replace(/\[(\d+)\]/g, ".$1").replace(/^\./, "");
}

export function inputId(prefix: string, name: string): string {
  return `${prefix}-${name.replace(/[^a-zA-Z0-9]+/g, "-")}`.replace(/-+$/, "");
}

/**
 * Provides values and errors to the fields inside. With `target`, the reply
 * only applies when it is about this form (pages with several forms).
 */
export function FormScope({
  reply,
  defaults = {},
  target = null,
  idPrefix = "f",
  children,
}: {
  reply?: FormReply | null;
  defaults?: Record<string, string>;
  target?: string | null;
  idPrefix?: string;
  children: ReactNode;
}) {
  const mine = reply && (reply.target ?? null) === target ? reply : null;
  const value: Scope = { values: mine ? mine.values : defaults, errors: mine?.errors ?? {}, idPrefix };
  return <ScopeContext.Provider value={value}>{children}</ScopeContext.Provider>;
}

export function useFieldState(name: string) {
  const scope = useContext(ScopeContext);
  return {
    id: inputId(scope.idPrefix, name),
    value: scope.values[name],
    errors: scope.errors[errorKey(name)] ?? null,
  };
}

type TextInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id" | "defaultValue"> & {
  name: string;
  label: ReactNode;
  help?: ReactNode;
  className?: string;
};

export function TextInput({ name, label, help, className, ...rest }: TextInputProps) {
  const { id, value, errors } = useFieldState(name);
  return (
    <Field
      label={label}
      help={help}
      errors={errors}
      className={className}
      inputProps={{ id, name, defaultValue: value ?? "", ...rest }}
    />
  );
}

export function SelectInput({
  name,
  label,
  options,
  placeholder,
  help,
  className,
  required,
  onChange,
}: {
  name: string;
  label: ReactNode;
  options: readonly SelectOption[];
  placeholder?: string;
  help?: ReactNode;
  className?: string;
  required?: boolean;
  onChange?: React.ChangeEventHandler<HTMLSelectElement>;
}) {
  const { id, value, errors } = useFieldState(name);
  return (
    <SelectField
      label={label}
      help={help}
      errors={errors}
      className={className}
      options={options}
      placeholder={placeholder}
      selectProps={{ id, name, defaultValue: value ?? "", required, onChange }}
    />
  );
}

export function TextArea({
  name,
  label,
  help,
  className = "",
  ...rest
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "id" | "defaultValue"> & { name: string; label: ReactNode; help?: ReactNode }) {
  const { id, value, errors } = useFieldState(name);
  return (
    <FieldFrame id={id} label={label} help={help} errors={errors} className={className}>
      <textarea id={id} name={name} defaultValue={value ?? ""} rows={4} {...rest} className={fieldInputClasses} {...controlAria(id, help, errors)} />
    </FieldFrame>
  );
}

export function Checkbox({ name, label, help, className = "" }: { name: string; label: ReactNode; help?: ReactNode; className?: string }) {
  const { id, value, errors } = useFieldState(name);
  const checked = value === "on" || value === "true";
  const hasError = Boolean(errors?.length);
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="flex items-start gap-2 text-sm">
        <input
          id={id}
          name={name}
          type="checkbox"
          defaultChecked={checked}
          className="mt-0.5 size-4 accent-primary-500"
          aria-invalid={hasError || undefined}
          aria-describedby={describedBy(id, Boolean(help), hasError)}
        />
        <span>
          <span className="font-medium">{label}</span>
          {help ? (
            <span id={`${id}-help`} className="block text-xs text-[var(--muted)]">
              {help}
            </span>
          ) : null}
        </span>
      </label>
      {hasError ? <FieldErrors id={`${id}-error`} errors={errors} /> : null}
    </div>
  );
}

/** An image input (the form needs `encType="multipart/form-data"`), with the current image and the stored URL kept in a hidden field. */
export function ImageInput({
  name,
  urlName,
  label,
  help = "JPG, PNG o WebP de hasta 2 MB.",
  alt,
}: {
  name: string;
  urlName: string;
  label: ReactNode;
  help?: ReactNode;
  alt: string;
}) {
  const { id, errors } = useFieldState(name);
  const url = useFieldState(urlName).value ?? "";
  const hasError = Boolean(errors?.length);
  return (
    <div className="flex flex-col gap-2">
      {url ? <img src={url} alt={alt} className="max-h-40 w-auto self-start rounded-lg border border-[var(--border)] object-contain" /> : null}
      <input type="hidden" name={urlName} value={url} />
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <p id={`${id}-help`} className="text-xs text-[var(--muted)]">
        {url ? "Ya hay una imagen cargada; elegí otra solo si querés cambiarla. " : null}
        {help}
      </p>
      {/* A Spanish picker ("Elegir archivo") over the native input, which an English browser labels "Choose File". */}
      <FileInput id={id} name={name} accept="image/jpeg,image/png,image/webp" aria-invalid={hasError || undefined} aria-describedby={describedBy(id, true, hasError)} />
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}

export function FormErrorList({ reply, target = null }: { reply?: FormReply | null; target?: string | null }) {
  const list = reply && (reply.target ?? null) === target ? reply.formErrors : [];
  if (!list.length) return null;
  return (
    <div role="alert" className="mb-4 rounded-lg border border-red-500 bg-red-50 px-4 py-3 text-sm text-red-900 dark:bg-red-950/40 dark:text-red-100">
      {list.length === 1 ? (
        list[0]
      ) : (
        <ul className="list-disc pl-4">
          {list.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A numbered step of a long form. */
export function Step({ title, children, description }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <fieldset className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4 sm:p-6">
      <legend className="px-2 text-lg font-bold">{title}</legend>
      {description ? <p className="mb-4 text-sm text-[var(--muted)]">{description}</p> : null}
      {children}
    </fieldset>
  );
}

export { FormSnackbar } from "#app/components/ui/FormSnackbar";

/** True while this page's own form is being posted. */
export function useIsPosting(): boolean {
  const navigation = useNavigation();
  const action = useFormAction();
  if (navigation.state === "idle" || navigation.formMethod?.toUpperCase() !== "POST" || !navigation.formAction) return false;
  return new URL(navigation.formAction, "http://x").pathname === new URL(action, "http://x").pathname;
}

/**
 * A key that changes each time one of `deps` changes (a new action answer, new
 * loader data): forms keyed with it start again from their default values,
 * so a removed row or a normalised value never leaves stale text in an input.
 */
export function useRemountKey(...deps: unknown[]): string {
  const state = useRef<{ deps: unknown[]; n: number }>({ deps, n: 0 });
  if (deps.length !== state.current.deps.length || deps.some((d, i) => d !== state.current.deps[i])) {
    state.current = { deps, n: state.current.n + 1 };
  }
  return String(state.current.n);
}

/** How many rows of a repeated group (`dates[0].…`, `dates[1].…`) the values hold. */
export function rowCount(values: Record<string, string>, group: string): number {
  const re = new RegExp(`^${group}\\[(\\d+)\\]`);
  let max = -1;
  for (const name of Object.keys(values)) {
    const match = re.exec(name);
    if (match) max = Math.max(max, Number(match[1]));
  }
  return max + 1;
}

/**
 * Put first in a form with several submit buttons: Enter in a field submits
 * the form with its first submit button, so this makes that the safe one
 * (never "Eliminar").
 */
export function DefaultSubmit({ value, label }: { value: string; label: string }) {
  return (
    <button type="submit" name="intent" value={value} tabIndex={-1} aria-hidden="true" className="sr-only">
      {label}
    </button>
  );
}
