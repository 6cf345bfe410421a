import { MESSAGES, PATTERNS } from "#common/fields";
import { useNativeForm, type NativeFormResult } from "../forms/native-form";

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
export type AccountFormResult = NativeFormResult;

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
  const { form, errors } = useNativeForm({
    id,
    lastResult,
    check: (control) => {
      const rule = rules[control.name];
      return rule ? fieldError(rule, control.value) : null;
    },
    // An error found in the browser stops the submit (the payer form's goes on to the server: decision 163).
    blockInvalidSubmit: true,
    keepFormErrors: false,
  });
  const initial = (lastResult?.initialValue ?? defaultValue ?? {}) as Record<string, unknown>;

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

  return [form, fields] as const;
}

/** The form element's props: never the browser's own bubbles (the server's messages, in Spanish, even without JavaScript). */
export { getFormProps as getLightFormProps } from "../forms/native-form";

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
