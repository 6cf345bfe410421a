import { useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useFormAction, useNavigation } from "@remix-run/react";
import type { z } from "zod";

/**
 * Conform set up the same way for every account form: the form's zod schema
 * validates on blur (then on input) in the browser, exactly as the action
 * validates it again on the server; the server's answer (`lastResult`) shows
 * its errors next to the fields, also when the page was posted without JavaScript.
 */
export function useAccountForm<Schema extends z.ZodObject>(
  schema: Schema,
  options: {
    id: string;
    lastResult?: SubmissionResult<string[]> | null;
    defaultValue?: Record<string, string | null | undefined>;
  },
) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue as never,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

/** True while this page's own form is being sent (not the header's theme or logout forms). */
export function useIsSubmitting(): boolean {
  const navigation = useNavigation();
  const action = useFormAction();
  if (navigation.state === "idle" || navigation.formMethod?.toUpperCase() !== "POST" || !navigation.formAction) return false;
  return new URL(navigation.formAction, "http://x").pathname === new URL(action, "http://x").pathname;
}
