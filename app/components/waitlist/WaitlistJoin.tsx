import { buttonClasses } from "#app/components/ui/Button";

/**
 * On a sold-out event (or ticket type) whose waiting list is on: a plain GET form to the waiting list's page,
 * where a signed-in person chooses what and how many (works without JavaScript).
 */
export function WaitlistJoin({ href }: { href: string }) {
  const [path, query] = href.split("?");
  const ticket = new URLSearchParams(query ?? "").get("entrada");
  return (
    <section aria-labelledby="lista-de-espera" className="flex flex-col gap-3 rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4">
      <div>
        <h2 id="lista-de-espera" className="text-lg font-bold">
          ¿Te quedaste sin entrada?
        </h2>
        <p className="text-sm text-[var(--muted)]">
          Anotate en la lista de espera: si vuelven entradas, te las guardamos por orden de llegada y te avisamos por email. Anotarte no te cobra nada.
        </p>
      </div>
      <form method="get" action={path}>
        {ticket ? <input type="hidden" name="entrada" value={ticket} /> : null}
        <button type="submit" className={buttonClasses("secondary", "min-h-11 w-full")}>
          Anotarme en la lista de espera
        </button>
      </form>
    </section>
  );
}
