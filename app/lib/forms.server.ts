import type { Submission, SubmissionResult } from "@conform-to/react";
import { GENERIC_ERROR, isDomainError } from "#server/errors";
import { FORM_STATUS } from "./domain-errors.server";

/**
 * Helpers for account (and later) actions: they turn a failed parse or a
 * DomainError into Conform's `submission.reply()`, so the message shows next
 * to its field, or above the form when it is about no field in particular.
 */

// Any Conform submission, whatever its schema.
type AnySubmission = Submission<any, string[], any>;

export interface ReplyOptions {
  /** Fields never echoed back to the page (passwords, codes). */
  hideFields?: string[];
  /**
   * The fields the person can see in this form. A field error for another key
   * (a hidden token, `_form`) is shown as a form error instead. Defaults to
   * the fields that were submitted.
   */
  fields?: readonly string[];
  /** Where a message without field errors goes (for example `email` for "no user with that email"); default the form. */
  messageField?: string;
}


/** The reply for input that failed the form's own schema: status 400 with the schema's messages. */
export function invalidReply(submission: AnySubmission, options: Pick<ReplyOptions, "hideFields"> = {}) {
  return { result: submission.reply({ hideFields: options.hideFields }) as SubmissionResult<string[]>, status: 400 };
}

/**
 * The reply for an error thrown by a domain function. Unknown errors are
 * logged and shown as the generic error (status 500), keeping what the person
 * typed.
 */
export function domainErrorReply(submission: AnySubmission, error: unknown, options: ReplyOptions = {}) {
  if (!isDomainError(error)) {
    console.error(error);
    return {
      result: submission.reply({ formErrors: [GENERIC_ERROR], hideFields: options.hideFields }) as SubmissionResult<string[]>,
      status: 500,
      code: null,
    };
  }
  const visible = new Set(options.fields ?? Object.keys(submission.payload ?? {}));
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const [name, messages] of Object.entries(error.fieldErrors ?? {})) {
    if (visible.has(name)) fieldErrors[name] = messages;
    else for (const message of messages) if (!formErrors.includes(message)) formErrors.push(message);
  }
  if (!Object.keys(fieldErrors).length && !formErrors.length) {
    if (options.messageField && visible.has(options.messageField)) fieldErrors[options.messageField] = [error.message];
    else formErrors.push(error.message);
  }
  return {
    result: submission.reply({ fieldErrors, formErrors, hideFields: options.hideFields }) as SubmissionResult<string[]>,
    status: FORM_STATUS[error.code] ?? 400,
    code: error.code,
  };
}

/** Merges Set-Cookie (and other) headers of several sources into one response's headers. */
export function mergeHeaders(...sources: (HeadersInit | null | undefined)[]): Headers {
  const out = new Headers();
  for (const source of sources) {
    if (!source) continue;
    new Headers(source).forEach((value, name) => {
      if (name.toLowerCase() === "set-cookie") return;
      out.set(name, value);
    });
    for (const cookie of new Headers(source).getSetCookie()) out.append("Set-Cookie", cookie);
  }
  return out;
}
