import { createContext, useContext, useMemo, useRef, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";
import { FormProvider, getFormProps, useField, useForm, useFormMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { FileInput } from "#app/components/ui/FileInput";
import { Form, useFormAction, useNavigation, type FormProps } from "@remix-run/react";
import { controlAria, describedBy, Field, FieldErrors, FieldFrame, fieldInputClasses } from "#app/components/ui/Field";
import { SelectField, type SelectOption } from "#app/components/ui/Select";
import type { FormReply } from "./types";

/**
 * Back-office forms, on Conform like the account forms. A form scope holds
 * what the page starts with (`defaults`) and the action's last answer
 * (`reply`, a FormReply: what was typed, messages by the domain's key, form
 * messages, the snackbar); each field reads its value by name and its
 * messages from Conform's field metadata. Names follow the domain's nesting
 * (`dates[0].startsAt`) and the domain's error keys (`dates.0.startsAt`) are
 * turned into those names, so a message lands next to its input, also after
 * a post without JavaScript.
 *
 * `BackofficeForm` draws the <form> itself: given a zod schema (built from
 * common/ field schemas, never from #server), it validates in the browser on
 * blur, then on input, and blocks an invalid submit with the same Spanish
 * messages the domain would answer. Without a schema, or with `FormScope`
 * inside a form drawn by the page, only the server's answer is shown.
 *
 * Fields are uncontrolled (`defaultValue`): what a person types before the
 * page hydrates stays in them, also when React has to draw the page again on
 * the client (app/lib/typed-values.ts, decision 185).
 */

type Scope = { values: Record<string, string>; idPrefix: string; formId: string };

const ScopeContext = createContext<Scope | null>(null);

/** `dates.0.startsAt` → `dates[0].startsAt` (the input's name, Conform's key). */
export function fieldName(key: string): string {
  return key
    .split(".")
    .map((segment, i) => (/^\d+$/.test(segment) ? `[${segment}]` : i === 0 ? segment : `.${segment}`))
    .join("");
}

export function inputId(prefix: string, name: string): string {
  return `${prefix}-${name.replace(/[^a-zA-Z0-9]+/g, "-")}`.replace(/-+$/, "");
}

/** The reply of the page's action as Conform's `lastResult`: field messages under the inputs' names, form messages under "". */
export function toSubmissionResult(reply: FormReply | null): SubmissionResult<string[]> {
  if (!reply) return { error: {} };
  const error: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(reply.errors)) if (messages.length) error[key === "_form" ? "" : fieldName(key)] = messages;
  if (reply.formErrors.length) error[""] = [...(error[""] ?? []), ...reply.formErrors];
  return { status: Object.keys(error).length ? "error" : undefined, error };
}

interface ScopeOptions {
  reply?: FormReply | null;
  defaults?: Record<string, string>;
  /** Which form of the page this is: the reply only applies when its `target` is this one. */
  target?: string | null;
  idPrefix?: string;
  /** Conform's form id (the <form>'s id); one is made up when not given. */
  id?: string;
  /** The form's schema, for validation in the browser (BackofficeForm only). */
  schema?: z.ZodType;
}

/** The intent a Conform validation carries ("validate" on blur/input, with the field's name). */
function validatedName(formData: FormData): string | null {
  const raw = formData.get("__intent__");
  if (typeof raw !== "string") return null;
  try {
    const intent = JSON.parse(raw) as { type?: string; payload?: { name?: string } };
    return intent.type === "validate" ? (intent.payload?.name ?? null) : null;
  } catch {
    return null;
  }
}

/**
 * Conform's `onValidate` for a back-office form: the schema's Spanish
 * messages, except for buttons marked `formNoValidate` ("Agregar otra fecha",
 * "Quitar…", "Eliminar"), which post the form as it is. The server's messages
 * about other fields (a code already taken…) stay until that field is checked
 * again.
 */
export function validateWith(schema: z.ZodType, serverErrors: () => Record<string, string[] | null>) {
  return ({ formData, submitter }: { formData: FormData; submitter?: HTMLInputElement | HTMLButtonElement | null }) => {
    // (Conform's own validation button is marked formNoValidate too: that one does validate.)
    if (submitter && submitter.name !== "__intent__" && "formNoValidate" in submitter && submitter.formNoValidate) return parseWithZod(formData, { schema: z.any() });
    const submission = parseWithZod(formData, { schema });
    const touched = validatedName(formData);
    const reply = submission.reply.bind(submission);
    submission.reply = (options) => {
      const result = reply(options);
      if (result.status === "success" && !touched) return result;
      const error: Record<string, string[] | null> = { ...result.error };
      // ("" is the form's own messages: they stay while the person fills the form in, not after a blocked submit.)
      for (const name of Object.keys(serverErrors())) if (name !== touched && (name !== "" || touched) && !error[name]) error[name] = null;
      return { ...result, error };
    };
    return submission;
  };
}

function useScope({ reply, defaults = {}, target = null, idPrefix = "f", id, schema }: ScopeOptions) {
  const mine = reply && (reply.target ?? null) === target ? reply : null;
  // A new answer of the action (for this form or another one) replaces the messages shown, as a new page would.
  const lastResult = useMemo(() => toSubmissionResult(mine), [reply]);
  const serverErrors = useRef(lastResult.error ?? {});
  serverErrors.current = lastResult.error ?? {};
  const [form] = useForm({
    id,
    lastResult,
    shouldValidate: schema ? "onBlur" : "onSubmit",
    shouldRevalidate: schema ? "onInput" : "onSubmit",
    onValidate: schema ? validateWith(schema, () => serverErrors.current) : undefined,
  });
  const scope: Scope = { values: mine ? mine.values : defaults, idPrefix, formId: form.id };
  return { form, scope };
}

/**
 * Provides values and messages to the fields inside a form the page draws
 * itself (server answer only). With `target`, the reply only applies when it
 * is about this form (pages with several forms).
 */
export function FormScope({ children, ...options }: Omit<ScopeOptions, "schema"> & { children: ReactNode }) {
  const { form, scope } = useScope(options);
  return (
    <FormProvider context={form.context}>
      <ScopeContext.Provider value={scope}>{children}</ScopeContext.Provider>
    </FormProvider>
  );
}

/**
 * A back-office <Form> (Remix's: works without JavaScript) with its fields'
 * scope. With `schema`, Conform checks it in the browser before posting; the
 * browser's own (English) bubbles are off either way (`noValidate`).
 */
export function BackofficeForm({
  reply,
  defaults,
  target,
  idPrefix,
  id,
  schema,
  children,
  ...formProps
}: ScopeOptions & Omit<FormProps, "id" | "onSubmit" | "noValidate" | "children"> & { children: ReactNode }) {
  const { form, scope } = useScope({ reply, defaults, target, idPrefix, id, schema });
  return (
    <FormProvider context={form.context}>
      <ScopeContext.Provider value={scope}>
        <Form {...formProps} {...getFormProps(form)}>
          {children}
        </Form>
      </ScopeContext.Provider>
    </FormProvider>
  );
}

export function useFieldState(name: string) {
  const scope = useContext(ScopeContext);
  if (!scope) throw new Error(`The field ${name} is outside a FormScope or BackofficeForm`);
  const [field] = useField<unknown>(name, { formId: scope.formId });
  const errors = field.errors?.length ? field.errors : null;
  return {
    id: inputId(scope.idPrefix, name),
    value: scope.values[name],
    errors,
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

/**
 * The messages about the whole form. Inside a FormScope or BackofficeForm it
 * shows that form's (the server's, and the browser's check); elsewhere the
 * reply's, when its `target` is this one.
 */
export function FormErrorList({ reply, target = null }: { reply?: FormReply | null; target?: string | null }) {
  const scope = useContext(ScopeContext);
  if (scope) return <ScopedFormErrors formId={scope.formId} />;
  const list = reply && (reply.target ?? null) === target ? reply.formErrors : [];
  return <FormErrorBox list={list} />;
}

function ScopedFormErrors({ formId }: { formId: string }) {
  const form = useFormMetadata(formId);
  return <FormErrorBox list={form.errors ?? []} id={form.errorId} />;
}

function FormErrorBox({ list, id }: { list: string[]; id?: string }) {
  if (!list.length) return null;
  return (
    <div id={id} role="alert" className="mb-4 rounded-lg border border-red-500 bg-red-50 px-4 py-3 text-sm text-red-900 dark:bg-red-950/40 dark:text-red-100">
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
