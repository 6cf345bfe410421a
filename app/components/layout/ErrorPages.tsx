import { Link } from "@remix-run/react";
import { NOT_FOUND_MARKER } from "#app/lib/sentry-route";
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

const FORBIDDEN_TITLE = "No tenés permiso para ver esta página";
/** Refusals that say no more than the title: the domain's default (server/errors.ts `Forbidden`) and the back office's. */
const SAID_BY_THE_TITLE = ["No tenés permiso para hacer esto.", `${FORBIDDEN_TITLE}.`];

/**
 * A thrown 403: the person is signed in but may not open this page (their role, or another organization's data).
 * It says so and what to do, never "algo salió mal": nothing broke. `message` is the domain's own reason, when
 * it says more than the title.
 * @public root.tsx renders it from the chunk errorPagesLoader.ts imports.
 */
export function ForbiddenPage({ message, organizer = false }: { message?: string | null; organizer?: boolean }) {
  return (
    <main className="mx-auto flex max-w-2xl flex-col items-start gap-4 px-4 py-16 sm:px-6" data-forbidden="">
      <p className="text-sm font-bold tracking-widest text-secondary-700 dark:text-secondary-400">ERROR 403</p>
      <h1 className="text-3xl font-bold sm:text-4xl">{FORBIDDEN_TITLE}</h1>
      {message && !SAID_BY_THE_TITLE.includes(message) ? <p>{message}</p> : null}
      <p className="text-[var(--muted)]">
        Tu cuenta no tiene acceso a esta página. Si es de una organización y creés que deberías verla,
        pedíselo a quien administra la organización: un dueño o admin puede cambiar tu rol desde Equipo. Si
        tenés más de una cuenta, fijate de haber ingresado con la correcta.
      </p>
      <div className="mt-2 flex flex-wrap gap-3">
        {organizer ? (
          <Link to={PATHS.organization} className={primaryButton}>
            Ir a Mi organización
          </Link>
        ) : null}
        <Link to={PATHS.home} className={organizer ? outlineButton : primaryButton}>
          Volver al inicio
        </Link>
      </div>
    </main>
  );
}

/**
 * Any other thrown 4xx (a bad link, too many tries): the person's request, not our fault, so no "500" and no
 * report to Sentry. Shows the domain's message when there is one.
 * @public root.tsx renders it from the chunk errorPagesLoader.ts imports.
 */
export function RequestErrorPage({ status, message }: { status: number; message?: string | null }) {
  return (
    <main className="mx-auto flex max-w-2xl flex-col items-start gap-4 px-4 py-16 sm:px-6">
      <p className="text-sm font-bold tracking-widest text-secondary-700 dark:text-secondary-400">{`ERROR ${status}`}</p>
      <h1 className="text-3xl font-bold sm:text-4xl">No pudimos abrir esta página</h1>
      <p className="text-[var(--muted)]">
        {message ?? "Revisá el enlace o volvé a intentarlo en unos minutos."}
      </p>
      <div className="mt-2 flex flex-wrap gap-3">
        <Link to={PATHS.home} className={primaryButton}>
          Volver al inicio
        </Link>
        <Link to={PATHS.help} className={outlineButton}>
          Ir a Ayuda
        </Link>
      </div>
    </main>
  );
}

/** The 500 pages' words: our fault, not the person's (never "te faltó cargar algunos datos"), and what to do. */
export const SERVER_ERROR_TITLE = "Algo salió mal de nuestro lado";
export const SERVER_ERROR_TEXT = "No es por algo que hayas hecho o cargado: tuvimos un error. Probá de nuevo en unos minutos.";

/** Content of /500 and of unexpected errors. `details` only in development. */
export function ServerErrorPage({ details, retry = true }: { details?: string | null; retry?: boolean }) {
  return (
    <main className="mx-auto flex max-w-2xl flex-col items-start gap-4 px-4 py-16 sm:px-6">
      <p className="text-sm font-bold tracking-widest text-secondary-700 dark:text-secondary-400">ERROR 500</p>
      <h1 className="text-3xl font-bold sm:text-4xl">{SERVER_ERROR_TITLE}</h1>
      <p className="text-[var(--muted)]">{SERVER_ERROR_TEXT}</p>
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
