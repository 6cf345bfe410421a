import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { Link, useLoaderData } from "@remix-run/react";
import { formatMoney } from "#common/money";
import { getRequestContext } from "#app/lib/session.server";
import { buttonClasses } from "#app/components/ui/Button";
import { getCheckoutSummary } from "#server/orders/checkout";
import { withBillingToken } from "#server/auth/billing-access";
import { purchaseKindOfOrders } from "#server/orders/purchase-kind";
import { purchaseWords } from "#common/order-words";
import { eventPath } from "./eventos.$slug.server";

/** Where the provider sends the buyer back (Mercado Pago's back_urls; the sandbox too). */
const PROVIDER_STATUSES = ["approved", "pending", "rejected", "failure"] as const;
type ProviderStatus = (typeof PROVIDER_STATUSES)[number];

/** Seconds between reloads while we wait for the payment's notification. */
export const STATUS_REFRESH_SECONDS = 3;

export type Outcome = "approved" | "confirming" | "pending" | "rejected" | "expired" | "refunded";

export const STATUS_TITLES: Record<Outcome, string> = {
  approved: "¡Listo! Tu pago fue aprobado",
  confirming: "Estamos confirmando tu pago",
  pending: "Tu pago está pendiente",
  rejected: "Tu pago no se completó",
  expired: "Tu reserva venció",
  refunded: "Te devolvemos el dinero",
};

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${STATUS_TITLES[data.outcome]} · Tribuna` : "Tu compra · Tribuna" },
  { name: "robots", content: "noindex" },
  // Without JavaScript too: the page reloads until our state says what happened.
  ...(data?.refresh ? [{ httpEquiv: "refresh", content: String(STATUS_REFRESH_SECONDS) }] : []),
];

function notFound(): never {
  throw new Response("No encontramos tu compra.", { status: 404, headers: { "Cache-Control": "private, no-store", "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * `/checkout/status/{approved|pending|rejected|failure}?billingId=…&t=…`:
 * the landing after the provider. What it says comes from OUR billing, not
 * from the query (a buyer can type any status): approved before the
 * notification arrived is "confirming" and reloads; a rejection offers to pay
 * again while the hold lasts.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const status = params.status as ProviderStatus;
  if (!PROVIDER_STATUSES.includes(status)) notFound();
  const url = new URL(request.url);
  const billingId = url.searchParams.get("billingId") ?? url.searchParams.get("external_reference") ?? "";
  const { ctx, headers } = await getRequestContext(request);
  headers.set("Cache-Control", "private, no-store");
  let summary: Awaited<ReturnType<typeof getCheckoutSummary>>;
  try {
    summary = await getCheckoutSummary(ctx, billingId, { token: url.searchParams.get("t") });
  } catch (error) {
    throw pageErrorResponse(error, { conceal: true, notFoundText: "No encontramos tu compra." });
  }
  const { order, billing, event, held } = summary;

  let outcome: Outcome;
  if (billing.status === "approved") outcome = "approved";
  else if (billing.status === "refunded" || billing.status === "charged_back") outcome = "refunded";
  else if (!held) outcome = "expired";
  else if (status === "approved") outcome = "confirming";
  else if (status === "pending") outcome = "pending";
  else outcome = "rejected";

  // A drink order speaks of consumiciones, the bar and the menu (docs/wording.md).
  const kind = await purchaseKindOfOrders(ctx.db, [order.id]);
  return data(
    {
      kind,
      outcome,
      refresh: outcome === "confirming" || outcome === "pending",
      code: order.code,
      total: formatMoney(order.total),
      email: order.payer.email,
      eventName: event?.name ?? null,
      eventHref: event ? (kind === "menu" ? `/menu/${event.slug}` : eventPath(event.slug)) : "/",
      ticketsHref: withBillingToken(`/tickets/${billing.id}`, billing.id),
      retryHref: withBillingToken(`/checkout/${billing.id}`, billing.id),
    },
    { headers },
  );
}

export default function CheckoutStatusPage() {
  const { kind, outcome, code, total, email, eventName, eventHref, ticketsHref, retryHref } = useLoaderData<typeof loader>();
  const words = purchaseWords(kind);
  return (
    <main className="mx-auto flex w-full max-w-xl flex-col gap-4 px-4 py-10 sm:px-6" data-outcome={outcome}>
      <p className="text-sm font-bold tracking-wide text-[var(--accent)]">{eventName ?? "TU COMPRA"}</p>
      <h1 className="text-2xl font-bold leading-tight sm:text-3xl">{STATUS_TITLES[outcome]}</h1>
      <p className="text-sm">
        Compra <strong>{code}</strong> · {total}
      </p>
      <div role="status" className="flex flex-col gap-3">
        {outcome === "approved" ? (
          <>
            <p>
              Te mandamos {words.the} a {email}. También las podés ver ahora y mostrarlas {kind === "ticket" ? "en la puerta" : words.showAt} desde el celular.
            </p>
            <p>
              <a href={ticketsHref} className={buttonClasses("primary", "min-h-11")}>
                Ver mis {words.plural}
              </a>
            </p>
          </>
        ) : null}
        {outcome === "confirming" ? (
          <p>
            Mercado Pago nos avisa en unos segundos. Esta página se actualiza sola; no hace falta que pagues de nuevo. Si tarda, te avisamos por
            email a {email}.
          </p>
        ) : null}
        {outcome === "pending" ? (
          <p>
            Tu pago quedó pendiente de acreditación (por ejemplo, un pago en efectivo). Cuando se acredite te avisamos por email a {email} y te
            mandamos {words.the}. Las tenemos reservadas mientras tanto.
          </p>
        ) : null}
        {outcome === "rejected" ? (
          <>
            <p>El pago fue rechazado o se canceló. No te cobramos nada y {words.yours.toLowerCase()} siguen reservadas un rato más: probá de nuevo con otro medio de pago.</p>
            <p>
              <a href={retryHref} className={buttonClasses("primary", "min-h-11")}>
                Reintentar el pago
              </a>
            </p>
          </>
        ) : null}
        {outcome === "expired" ? (
          <>
            <p>No recibimos el pago a tiempo y {words.the} volvieron a la venta. Si llegaste a pagar, te devolvemos el dinero automáticamente.</p>
            <p>
              <Link to={eventHref} className={buttonClasses("primary", "min-h-11")}>
                {kind === "menu" ? "Volver al menú" : "Volver al evento"}
              </Link>
            </p>
          </>
        ) : null}
        {outcome === "refunded" ? (
          <p>Tu pago se acreditó cuando ya no quedaban {words.plural}, así que te lo devolvemos completo al mismo medio de pago. Te avisamos por email a {email}.</p>
        ) : null}
      </div>
    </main>
  );
}
