import { useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
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

// Kept here for the account forms that import it with useAccountForm; it lives apart so pages without Conform can use it.
export { useIsSubmitting } from "#app/components/ui/useIsSubmitting";
