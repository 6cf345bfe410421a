import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatEventStart } from "#common/dates";
import { formatMoney } from "#common/money";
import { isDomainError } from "#server/errors";
import { joinWaitlist, waitlistJoinOptions } from "#server/waitlist/waitlist";
import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { withFlash } from "#app/lib/flash.server";
import { getRequestContext, requireUser } from "#app/lib/session.server";
import { AccountPage } from "#app/components/account/AccountPage";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { WaitlistChoice } from "#app/components/waitlist/WaitlistChoice";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Lista de espera${data ? ` de ${data.event.name}` : ""} · Tribuna` },
  { name: "robots", content: "noindex" },
];

/** `/lista-de-espera/{slug}`: the form to join a sold-out event's waiting list (a plain form: works without JavaScript). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  // "Iniciá sesión para anotarte" comes back here once signed in (requireUser saves the way back).
  if (new URL(request.url).searchParams.has("ingresar")) await requireUser(request);
  const { ctx, headers } = await getRequestContext(request);
  headers.set("Cache-Control", "private, no-cache");
  try {
    const options = await waitlistJoinOptions(ctx, params.slug ?? "");
    const url = new URL(request.url);
    return data(
      {
        event: options.event,
        enabled: options.enabled,
        signedIn: ctx.actor.kind === "user",
        already: options.mine.length > 0,
        preselected: url.searchParams.get("entrada") ?? "",
        dates: options.dates
          .filter((d) => d.soldOut || d.ticketTypes.some((t) => t.soldOut))
          .map((d) => ({
            id: d.id,
            label: formatEventStart(d.startsAt),
            maxAny: d.soldOut ? d.maxPerOrder : 0,
            tickets: d.ticketTypes.filter((t) => t.soldOut).map((t) => ({ id: t.id, label: `${t.name} · ${formatMoney(t.price)}`, max: t.maxPerOrder })),
          })),
      },
      { headers },
    );
  } catch (error) {
    throw pageErrorResponse(error, { headers });
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  const form = await request.formData();
  const values = Object.fromEntries([...form].map(([k, v]) => [k, String(v)]));
  const [eventDateId, ticketTypeId] = (values.choice ?? "").split(":");
  try {
    const entry = await joinWaitlist(ctx, {
      eventSlug: params.slug ?? "",
      eventDateId: eventDateId || null,
      ticketTypeId: ticketTypeId && ticketTypeId !== "any" ? ticketTypeId : null,
      quantity: values.quantity ?? "",
    });
    const ahead = entry.ahead === 0 ? "Sos la primera persona de la lista." : entry.ahead === 1 ? "Hay 1 persona antes que vos." : `Hay ${entry.ahead} personas antes que vos.`;
    return redirect("/cuenta/lista-de-espera", {
      headers: withFlash(headers, { type: "success", message: `Te anotamos en la lista de espera de ${entry.eventName}. ${ahead} Si vuelven entradas, te avisamos por email.` }),
    });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const fieldErrors = error.fieldErrors as Record<string, string[] | undefined>;
    const choiceError = fieldErrors.eventDateId?.[0] ?? fieldErrors.ticketTypeId?.[0] ?? null;
    const quantityError = fieldErrors.quantity?.[0] ?? null;
    return data({ message: choiceError || quantityError ? null : error.message, choiceError, quantityError, values }, { status: error.code === "CONFLICT" ? 409 : 400, headers });
  }
}

export default function JoinWaitlistPage() {
  const page = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const eventHref = `/eventos/${page.event.slug}`;
  return (
    <AccountPage title="Lista de espera" description={page.event.name}>
      {!page.enabled ? (
        <p>Este evento no tiene lista de espera.</p>
      ) : !page.dates.length ? (
        <p>
          Todavía quedan entradas: comprálas en la{" "}
          <Link to={eventHref} className="text-[var(--accent)] underline underline-offset-2">
            página del evento
          </Link>
          .
        </p>
      ) : (
        <>
          <p className="mb-4 text-sm">
            Si vuelven entradas (alguien no paga a tiempo, una devolución o entradas nuevas del organizador), se las guardamos a quien se anotó primero y le mandamos
            un email con un enlace para reclamarlas. Tenés un tiempo para reclamarlas y pagarlas como en cualquier compra; si no, pasan a la siguiente persona. Anotarte
            no te cobra nada.
          </p>
          {page.already ? (
            <p className="mb-4 text-sm">
              Ya estás en esta lista.{" "}
              <Link to="/cuenta/lista-de-espera" className="text-[var(--accent)] underline underline-offset-2">
                Ver mis lugares
              </Link>
            </p>
          ) : null}
          {page.signedIn ? (
            <Form method="post" className="flex flex-col gap-4" noValidate>
              {reply?.message ? (
                <p role="alert" className="rounded-lg border border-red-500 p-3 text-sm text-red-700 dark:text-red-400">
                  {reply.message}
                </p>
              ) : null}
              <WaitlistChoice dates={page.dates} preselected={reply?.values.choice ?? page.preselected} quantity={reply?.values.quantity ?? "1"} choiceError={reply?.choiceError ?? null} quantityError={reply?.quantityError ?? null} />
              <Button type="submit">Anotarme en la lista de espera</Button>
            </Form>
          ) : (
            <p>
              <Link to={`/lista-de-espera/${page.event.slug}?ingresar=1`} className={buttonClasses("primary", "min-h-11")}>
                Iniciá sesión para anotarte
              </Link>
            </p>
          )}
        </>
      )}
      <p className="mt-6 text-sm">
        <Link to={eventHref} className="text-[var(--accent)] underline underline-offset-2">
          Volver al evento
        </Link>
      </p>
    </AccountPage>
  );
}
