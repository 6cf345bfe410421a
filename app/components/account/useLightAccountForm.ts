import { useRef, useState, type FormEvent, type SyntheticEvent } from "react";
import { MESSAGES, PATTERNS } from "#common/fields";

/**
 * The sign-up and sign-in forms in the browser without Conform or zod (decision 181; the payer form did the
 * same in decision 124): the two were ~35 kB gzip of pages whose budget leaves ~9 kB for their own code. The
 * action still parses with Conform + zod and answers with `submission.reply()`; this hook reads that answer
 * (each error next to its field, what was typed shown again), with or without JavaScript. In the browser each
 * field is checked with the same rules as its zod schema (common/validation.ts), written here over
 * common/fields.ts, in the same words and order; `light-rules.test.tsx` feeds both the same values. On blur,
 * again on input once a field was touched, and all at once on submit (an error stops it). Control characters
 * (pasted, never typed) are the server's to refuse.
 */

/** What the action answers (Conform's `submission.reply()`), read without Conform. */
export interface AccountFormResult {
  status?: "success" | "error";
  initialValue?: Record<string, unknown> | null;
  error?: Record<string, string[] | null> | null;
}

/**
 * A field's rule, after the schema it stands for: `text` is `requiredText` (required, no spaces at either end,
 * `minLength` when it has one), `name` is `nameSchema` (text, then letters and inner spaces), `email` is
 * `emailSchema` (required, no spaces, a well-formed address).
 */
export interface FieldRule {
  kind: "text" | "name" | "email";
  minLength?: number;
}
export type FormRules = Readonly<Record<string, FieldRule>>;

/** The first message the field's schema would give for `value`, or null when it takes it. */
export function fieldError(rule: FieldRule, value: string): string | null {
  if (value.length === 0) return MESSAGES.required;
  if (rule.kind === "email") {
    if (/\s/.test(value)) return MESSAGES.noSpaces;
    return PATTERNS.email.test(value) ? null : MESSAGES.email;
  }
  if (value !== value.trim()) return MESSAGES.trim;
  if (rule.minLength && value.length < rule.minLength) return MESSAGES.minLength(rule.minLength);
  if (rule.kind === "name" && !PATTERNS.name.test(value.normalize("NFC"))) return MESSAGES.name;
  return null;
}

function errorsFrom(result: AccountFormResult | null | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(result?.error ?? {})) if (messages?.length) errors[name] = messages;
  return errors;
}

const isInput = (target: EventTarget | null): target is HTMLInputElement => target instanceof HTMLInputElement;

export interface LightFieldMeta {
  id: string;
  name: string;
  errorId: string;
  initialValue: string | undefined;
  errors: string[] | undefined;
  required: boolean;
  minLength: number | undefined;
}

export function useLightAccountForm(options: { id: string; rules: FormRules; lastResult?: AccountFormResult | null; defaultValue?: Record<string, string | null | undefined> }) {
  const { id, rules, lastResult, defaultValue } = options;
  // A new answer from the action replaces the errors (and, without JavaScript, the values shown).
  const [state, setState] = useState(() => ({ result: lastResult, errors: errorsFrom(lastResult) }));
  if (state.result !== lastResult) setState({ result: lastResult, errors: errorsFrom(lastResult) });
  const errors = state.result === lastResult ? state.errors : errorsFrom(lastResult);
  const touched = useRef(new Set<string>());
  const initial = (lastResult?.initialValue ?? defaultValue ?? {}) as Record<string, unknown>;

  const check = (input: HTMLInputElement) => {
    const rule = rules[input.name];
    return rule ? fieldError(rule, input.value) : null;
  };
  const setFieldErrors = (changes: Record<string, string | null>) =>
    setState((current) => {
      const next = { ...current.errors };
      for (const [name, message] of Object.entries(changes)) {
        if (message) next[name] = [message];
        else delete next[name];
      }
      return { ...current, errors: next };
    });

  const field = (name: string): LightFieldMeta => ({
    id: `${id}-${name}`,
    name,
    errorId: `${id}-${name}-error`,
    initialValue: typeof initial[name] === "string" ? (initial[name] as string) : undefined,
    errors: errors[name],
    required: name in rules,
    minLength: rules[name]?.minLength,
  });
  const fields = new Proxy({} as Record<string, LightFieldMeta>, { get: (_, key) => field(String(key)) });

  const form = {
    id,
    errorId: `${id}-form-error`,
    errors: errors[""],
    /** On submit: every field checked; an error stops the submit (`event.defaultPrevented`). */
    onSubmit(event: FormEvent<HTMLFormElement>) {
      const changes: Record<string, string | null> = {};
      for (const element of Array.from(event.currentTarget.elements)) {
        if (!isInput(element) || !element.name || element.disabled) continue;
        touched.current.add(element.name);
        changes[element.name] = check(element);
      }
      if (Object.values(changes).some(Boolean)) event.preventDefault();
      setState((current) => {
        const next: Record<string, string[]> = {};
        for (const [name, message] of Object.entries(changes)) if (message) next[name] = [message];
        return { ...current, errors: next };
      });
    },
    onBlur(event: SyntheticEvent<HTMLFormElement>) {
      const input = event.target;
      if (!isInput(input) || !input.name) return;
      touched.current.add(input.name);
      setFieldErrors({ [input.name]: check(input) });
    },
    onInput(event: SyntheticEvent<HTMLFormElement>) {
      const input = event.target;
      if (!isInput(input) || !input.name || !touched.current.has(input.name)) return;
      setFieldErrors({ [input.name]: check(input) });
    },
  };
  return [form, fields] as const;
}

export type LightAccountForm = ReturnType<typeof useLightAccountForm>[0];

/** The form element's props: never the browser's own bubbles (the server's messages, in Spanish, even without JavaScript). */
export function getLightFormProps(form: LightAccountForm) {
  return {
    id: form.id,
    noValidate: true,
    onSubmit: form.onSubmit,
    onBlur: form.onBlur,
    onInput: form.onInput,
    "aria-describedby": form.errors?.length ? form.errorId : undefined,
  };
}

/** An input's props (the shape Conform's `getInputProps` gives, so Field takes either). */
export function getLightInputProps(meta: LightFieldMeta, options: { type: "text" | "email" | "password" }) {
  return {
    id: meta.id,
    name: meta.name,
    type: options.type,
    required: meta.required || undefined,
    minLength: meta.minLength,
    // A password is never shown again (the action leaves it out of its answer too).
    defaultValue: options.type === "password" ? undefined : meta.initialValue,
  };
}
