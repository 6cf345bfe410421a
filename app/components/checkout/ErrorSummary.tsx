import { forwardRef } from "react";
import { SNACKBAR_MESSAGES } from "#app/components/ui/Snackbar";

export interface SummaryError {
  /** The input's id: the link goes there. */
  fieldId: string;
  label: string;
  message: string;
}

/**
 * "Upppsss... parece que te faltó cargar algunos datos." at the top of a
 * form's page after a submit with errors, with a link to each field (and
 * what is not about one field, such as tickets that ran out). Without
 * JavaScript the answer is a new page that opens at the top, where this is;
 * with JavaScript the page focuses it (it has tabIndex -1 for that).
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
        {errors.length ? SNACKBAR_MESSAGES.saveError : "No pudimos seguir con tu compra"}
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
