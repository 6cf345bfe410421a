import { useRef, useState, type FormEvent, type SyntheticEvent } from "react";

/**
 * What the buyer pages' light form hooks share (useLightAccountForm, usePayerForm): the action's answer read
 * without Conform, and the browser's checks over a `check(control)` rule. Kept free of zod and Conform, which
 * would not fit those pages' JavaScript budget (decisions 124 and 181). Each control is checked on blur, again on
 * input once it was touched, and all of them at once on submit.
 */

/** What the action answers (Conform's `submission.reply()`), read without Conform. */
export interface NativeFormResult {
  status?: "success" | "error";
  initialValue?: Record<string, unknown> | null;
  error?: Record<string, string[] | null> | null;
}

/** The field errors of the action's answer, by input name ("" holds what is about the whole form). */
export function errorsFromResult(result: NativeFormResult | null | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(result?.error ?? {})) if (messages?.length) errors[name] = messages;
  return errors;
}

export type FormControl = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function isControl(target: EventTarget | null): target is FormControl {
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
}

export interface NativeFormOptions {
  id: string;
  lastResult: NativeFormResult | null | undefined;
  /** The message for one control, or null when it takes its value. */
  check: (control: FormControl) => string | null;
  /** Whether an error found in the browser stops the submit (`event.defaultPrevented`). */
  blockInvalidSubmit: boolean;
  /** Whether the errors about the whole form (key "") stay on submit until the server answers again. */
  keepFormErrors: boolean;
}

export function useNativeForm({ id, lastResult, check, blockInvalidSubmit, keepFormErrors }: NativeFormOptions) {
  // A new answer from the action replaces the errors (and, without JavaScript, the values shown).
  const [state, setState] = useState(() => ({ result: lastResult, errors: errorsFromResult(lastResult) }));
  if (state.result !== lastResult) setState({ result: lastResult, errors: errorsFromResult(lastResult) });
  const errors = state.result === lastResult ? state.errors : errorsFromResult(lastResult);
  const touched = useRef(new Set<string>());

  const setFieldErrors = (changes: Record<string, string | null>) =>
    setState((current) => {
      const next = { ...current.errors };
      for (const [name, message] of Object.entries(changes)) {
        if (message) next[name] = [message];
        else delete next[name];
      }
      return { ...current, errors: next };
    });

  const form = {
    id,
    errorId: `${id}-form-error`,
    errors: errors[""],
    /** On submit: every control checked and its error shown at once. */
    onSubmit(event: FormEvent<HTMLFormElement>) {
      const changes: Record<string, string | null> = {};
      for (const element of Array.from(event.currentTarget.elements)) {
        if (!isControl(element) || !element.name || element.disabled || element.type === "submit") continue;
        touched.current.add(element.name);
        changes[element.name] = check(element);
      }
      if (blockInvalidSubmit && Object.values(changes).some(Boolean)) event.preventDefault();
      setState((current) => {
        const next: Record<string, string[]> = {};
        for (const [name, message] of Object.entries(changes)) if (message) next[name] = [message];
        if (keepFormErrors && current.errors[""]) next[""] = current.errors[""];
        return { ...current, errors: next };
      });
    },
    onBlur(event: SyntheticEvent<HTMLFormElement>) {
      const control = event.target;
      if (!isControl(control) || !control.name) return;
      touched.current.add(control.name);
      setFieldErrors({ [control.name]: check(control) });
    },
    onInput(event: SyntheticEvent<HTMLFormElement>) {
      const control = event.target;
      if (!isControl(control) || !control.name || !touched.current.has(control.name)) return;
      setFieldErrors({ [control.name]: check(control) });
    },
  };
  return { form, errors };
}

export type NativeForm = ReturnType<typeof useNativeForm>["form"];

/** The form element's props: never the browser's own bubbles (the server's messages, in Spanish, even without JavaScript). */
export function getFormProps(form: NativeForm) {
  return {
    id: form.id,
    noValidate: true,
    onSubmit: form.onSubmit,
    onBlur: form.onBlur,
    onInput: form.onInput,
    "aria-describedby": form.errors?.length ? form.errorId : undefined,
  };
}
