import { forwardRef } from "react";
import { MESSAGES } from "#common/fields";
import { SNACKBAR_MESSAGES } from "#app/components/ui/Snackbar";

export interface SummaryError {
  /** The input's id: the link goes there. */
  fieldId: string;
  label: string;
  message: string;
}

const SUMMARY_HEADINGS = {
  /** Only when something is missing: the spec's message (corrected, docs/wording.md). */
  missing: SNACKBAR_MESSAGES.saveError,
  coupon: "Revisá el código de cupón",
  fields: "Revisá estos datos antes de seguir",
  form: "No pudimos seguir con tu compra",
} as const;

/** The heading that fits what is wrong: missing data, only the coupon, other fields, or nothing about a field. */
export function summaryHeading(errors: Pick<SummaryError, "fieldId" | "message">[]): string {
  if (errors.some((e) => e.message === MESSAGES.required)) return SUMMARY_HEADINGS.missing;
  if (errors.length && errors.every((e) => e.fieldId.endsWith("-couponCode"))) return SUMMARY_HEADINGS.coupon;
  return errors.length ? SUMMARY_HEADINGS.fields : SUMMARY_HEADINGS.form;
}

/**
 * Everything wrong after a submit, at the top of a form's page, under a
 * heading that fits (`summaryHeading`), with a link to each field (and what
 * is not about one field, such as tickets that ran out). Without JavaScript
 * the answer is a new page that opens at the top, where this is; with
 * JavaScript the page focuses it (it has tabIndex -1 for that).
 */
export const ErrorSummary = forwardRef<HTMLDivElement, { id?: string; errors: SummaryError[]; formErrors?: string[] }>(function ErrorSummary({ id, errors, formErrors = [] }, ref) {
  if (!errors.length && !formErrors.length) return null;
  return (
    <div
      ref={ref}
      id={id}
      tabIndex={-1}
      role="alert"
      aria-labelledby="resumen-errores-titulo"
      data-error-summary=""
      className="scroll-mt-24 rounded-lg border-2 border-red-500 bg-red-50 px-4 py-3 text-sm text-red-900 outline-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-500 dark:bg-red-950/40 dark:text-red-100"
    >
      <p id="resumen-errores-titulo" className="font-bold">
        {summaryHeading(errors)}
      </p>
      <ul className="mt-1 flex flex-col gap-1">
        {formErrors.map((message) => (
          <li key={message}>{message}</li>
        ))}
        {errors.map((error) => (
          <li key={error.fieldId}>
            <a href={`#${error.fieldId}`} className="font-medium underline underline-offset-2">
              {error.label}: {error.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
});
