import { useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";

/**
 * The payer form's Conform setup, shared by the tickets' and the menu's
 * checkout: validated on blur and again on input once touched, with the
 * server's answer (`lastResult`) when the browser had no JavaScript.
 */
export function usePayerForm(options: { id: string; lastResult: SubmissionResult<string[]> | undefined; defaultValue: Record<string, unknown>; schema: z.ZodType<Record<string, unknown>> }) {
  return useForm<Record<string, unknown>>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue as never,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: options.schema }),
  });
}
