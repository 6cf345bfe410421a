import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { useEffect } from "react";
import { captureBoundaryError } from "#app/lib/sentry-start";
import { SNACKBAR_MESSAGES } from "#app/components/ui/Snackbar";
import { buttonClasses } from "#app/components/ui/Button";
import { SERVER_ERROR_TEXT, SERVER_ERROR_TITLE } from "#app/components/layout/ErrorPages";
import { BO } from "./nav";

/**
 * Errors of a back-office page, shown inside the shell: another
 * organization's event is a 403 page, a missing one a 404, never a crash.
 */
export function BackofficeErrorBoundary() {
  const error = useRouteError();
  const response = isRouteErrorResponse(error) ? error : null;
  const expected = Boolean(response && response.status < 500);
  useEffect(() => {
    if (!expected) captureBoundaryError(error);
  }, [error, expected]);
  const message = typeof response?.data?.message === "string" ? (response.data.message as string) : null;

  if (response?.status === 403) {
    return (
      <ErrorMain code="ERROR 403" title="No tenés acceso a esta página">
        <p>{message ?? "No tenés permiso para ver esta página."}</p>
        <p>
          Esta página es de una organización de la que no sos parte, o tu rol en ella no permite verla. Si creés que
          es un error, pedile acceso a quien administra la organización.
        </p>
      </ErrorMain>
    );
  }
  if (response?.status === 404) {
    return (
      <ErrorMain code="ERROR 404" title="No encontramos lo que buscabas">
        <p>{message ?? "Puede que se haya eliminado o que el enlace esté mal escrito."}</p>
      </ErrorMain>
    );
  }
  if (response && response.status < 500) {
    return (
      <ErrorMain code={`ERROR ${response.status}`} title="No pudimos abrir esta página">
        <p>{message ?? SNACKBAR_MESSAGES.genericError}</p>
      </ErrorMain>
    );
  }
  return (
    <ErrorMain code="ERROR 500" title={SERVER_ERROR_TITLE}>
      <p>{SERVER_ERROR_TEXT} Si sigue pasando, escribinos a ayuda@tribuna.ar.</p>
    </ErrorMain>
  );
}

function ErrorMain({ code, title, children }: { code: string; title: string; children: React.ReactNode }) {
  return (
    <main className="mx-auto flex max-w-2xl flex-col items-start gap-4 px-4 py-16 text-[var(--muted)] sm:px-6">
      <p className="text-sm font-bold tracking-widest text-secondary-700 dark:text-secondary-400">{code}</p>
      <h1 className="text-3xl font-bold text-[var(--text)]">{title}</h1>
      {children}
      <Link to={BO.summary} className={buttonClasses("primary", "mt-2")}>
        Ir al resumen de mi organización
      </Link>
    </main>
  );
}
