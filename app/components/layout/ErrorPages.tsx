import { Link } from "@remix-run/react";
import { NOT_FOUND_MARKER } from "#app/lib/sentry-route";
import { SNACKBAR_MESSAGES } from "#app/components/ui/Snackbar";
import { PATHS } from "./navigation";

const primaryButton =
  "inline-flex min-h-11 items-center rounded-lg bg-primary-500 px-5 font-bold text-black hover:bg-primary-400";
const outlineButton =
  "inline-flex min-h-11 items-center rounded-lg border border-[var(--border)] px-5 font-medium hover:bg-[var(--surface)]";

/** Content of /404, of unknown URLs and of thrown 404s. */
export function NotFoundPage() {
  return (
    <main className="mx-auto flex max-w-2xl flex-col items-start gap-4 px-4 py-16 sm:px-6" {...{ [NOT_FOUND_MARKER]: "" }}>
      <p className="text-sm font-bold tracking-widest text-secondary-700 dark:text-secondary-400">ERROR 404</p>
      <h1 className="text-3xl font-bold sm:text-4xl">No encontramos esta página</h1>
      <p className="text-[var(--muted)]">
        Puede que el enlace esté mal escrito, que el evento ya no esté publicado o que la página se haya mudado.
        Revisá la dirección o seguí desde alguno de estos lugares.
      </p>
      <div className="mt-2 flex flex-wrap gap-3">
        <Link to={PATHS.home} className={primaryButton}>
          Ver eventos
        </Link>
        <Link to={PATHS.help} className={outlineButton}>
          Ir a Ayuda
        </Link>
      </div>
    </main>
  );
}

/** Content of /500 and of unexpected errors. `details` only in development. */
export function ServerErrorPage({ details, retry = true }: { details?: string | null; retry?: boolean }) {
  return (
    <main className="mx-auto flex max-w-2xl flex-col items-start gap-4 px-4 py-16 sm:px-6">
      <p className="text-sm font-bold tracking-widest text-secondary-700 dark:text-secondary-400">ERROR 500</p>
      <h1 className="text-3xl font-bold sm:text-4xl">Algo salió mal</h1>
      <p className="text-[var(--muted)]">{SNACKBAR_MESSAGES.genericError}.</p>
      <p className="text-[var(--muted)]">
        Si estabas comprando, no vuelvas a pagar: revisá <Link to={PATHS.myTickets} className="underline">Mis tickets</Link>{" "}
        o tu correo antes de intentar de nuevo. Si el problema sigue, escribinos a{" "}
        <a href="mailto:ayuda@tribuna.ar" className="underline">
          ayuda@tribuna.ar
        </a>
        .
      </p>
      <div className="mt-2 flex flex-wrap gap-3">
        {retry ? (
          <a href="" className={primaryButton}>
            Reintentar
          </a>
        ) : null}
        <Link to={PATHS.home} className={retry ? outlineButton : primaryButton}>
          Volver al inicio
        </Link>
      </div>
      {details ? (
        <pre className="mt-6 max-w-full overflow-auto rounded-lg border border-[var(--border)] bg-[var(--surface)] p-4 text-xs">
          {details}
        </pre>
      ) : null}
    </main>
  );
}
