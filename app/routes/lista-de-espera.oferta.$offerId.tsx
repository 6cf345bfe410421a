import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTime, formatEventStart } from "#common/dates";
import { formatMoney } from "#common/money";
import { withoutNationalTaxesLine } from "#common/tax-display";
import { withBillingToken } from "#server/auth/billing-access";
import type { Ctx } from "#server/context";
import { isDomainError } from "#server/errors";
import { claimWaitlistOffer, getWaitlistOffer } from "#server/orders/waitlist-claim";
import { unitPriceFigures } from "#server/orders/price-display";
import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { checkoutFailure, payerDefaults } from "#app/lib/checkout-reply.server";
import { parsePayerForm, payerQuestionsFor } from "#app/lib/payer-questions.server";
import { requireUser } from "#app/lib/session.server";
import { AccountPage } from "#app/components/account/AccountPage";
import { FormErrors } from "#app/components/account/Notice";
import { PayerInfoFields } from "#app/components/checkout/PayerInfoFields";
import { getFormProps, usePayerForm } from "#app/components/checkout/usePayerForm";
import { Button } from "#app/components/ui/Button";
import { useIsSubmitting } from "#app/components/ui/useIsSubmitting";

export const meta: MetaFunction = () => [{ title: "Reclamar entradas de la lista de espera · Tribuna" }, { name: "robots", content: "noindex" }];

async function load(ctx: Ctx, offerId: string) {
  const offer = await getWaitlistOffer(ctx, offerId);
  return { offer, questions: await payerQuestionsFor(ctx, offer.eventId, Array.from({ length: offer.quantity }, () => offer.ticketTypeName)) };
}

/**
 * `/lista-de-espera/oferta/{offerId}`, the link of the offer's email: the held tickets (or the resale ticket) and
 * the same payer form as the checkout (PayerInfoFields: the payer, the event's custom fields and, on a named
 * event, one holder per ticket). Claiming places a normal order with them and goes on to its checkout. Only the
 * account the offer was made to. The event's per-account limit is said before the form.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers, user } = await requireUser(request);
  headers.set("Cache-Control", "private, no-store");
  try {
    const { offer, questions } = await load(ctx, params.offerId ?? "");
    // Each ticket's final price, the service fee included, first (docs/prices.md).
    const unit = unitPriceFigures(offer.unitPrice, offer.serviceFeeBps);
    return data(
      {
        offer: {
          id: offer.id,
          open: offer.open,
          status: offer.status,
          resale: offer.listingId !== null,
          eventName: offer.eventName,
          eventSlug: offer.eventSlug,
          date: formatEventStart(offer.startsAt),
          ticket: offer.ticketTypeName,
          quantity: offer.quantity,
          wanted: offer.wanted,
          unitPrice: formatMoney(unit.finalCents),
          withoutNationalTaxesLine: unit.withoutNationalTaxes && withoutNationalTaxesLine(unit.withoutNationalTaxes),
          expires: formatDateTime(offer.expiresAt),
          limitRefusal: offer.limitRefusal,
        },
        payer: payerDefaults(user),
        ...questions,
      },
      { headers },
    );
  } catch (error) {
    throw pageErrorResponse(error, { headers });
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  const { questions } = await load(ctx, params.offerId ?? "").catch((error: unknown) => {
    throw pageErrorResponse(error, { headers, signIn: request });
  });
  const { submission, isField } = await parsePayerForm(request, questions);
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400, headers });
  const { couponCode: _coupon, attendees, customFields, ...payer } = submission.value;
  try {
    const { billing } = await claimWaitlistOffer(ctx, params.offerId ?? "", { payer, attendees: attendees ?? undefined, customFields: customFields ?? undefined });
    return redirect(withBillingToken(`/checkout/${billing.id}`, billing.id), { headers });
  } catch (error) {
    if (isDomainError(error) && (error.code === "NOT_FOUND" || error.code === "UNAUTHENTICATED")) throw pageErrorResponse(error, { headers, signIn: request });
    const { result, status } = checkoutFailure(error, submission, isField);
    return data({ result }, { status, headers });
  }
}

export default function ClaimOfferPage() {
  const { offer, payer, customFields, holders, holderLabels } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = usePayerForm({
    id: "oferta",
    lastResult: actionData?.result,
    // One row per holder from the start (the form lists as many rows as its value has), as on the checkout's payer page.
    defaultValue: { ...payer, attendees: holders ? Array.from({ length: holders }, () => ({ documentType: "dni" })) : undefined },
    customFields,
  });
  const submitting = useIsSubmitting();
  const units = offer.quantity === 1 ? "1 entrada" : `${offer.quantity} entradas`;
  return (
    <AccountPage title="Reclamar tus entradas" description={`${offer.eventName} · ${offer.date}`}>
      {offer.open ? (
        <>
          <p className="mb-2">
            Te guardamos <strong>{units}</strong> «{offer.ticket}» a <strong>{offer.unitPrice}</strong> {offer.quantity === 1 ? "" : "cada una"}, con el cargo por servicio incluido, hasta el{" "}
            <strong>{offer.expires}</strong>.
          </p>
          {offer.withoutNationalTaxesLine ? <p className="mb-2 text-sm text-[var(--muted)]">{offer.withoutNationalTaxesLine}</p> : null}
          {offer.resale ? (
            <p className="mb-2 text-sm">
              Es una entrada de la reventa oficial: alguien que no puede ir la devolvió al precio que pagó. Al pagarla te llega una entrada nueva, con un QR nuevo a tu nombre, y la de esa persona deja de servir.
            </p>
          ) : null}
          {offer.quantity < offer.wanted ? (
            <p className="mb-2 text-sm">
              Pediste {offer.wanted} y por ahora {offer.quantity === 1 ? "volvió 1" : `volvieron ${offer.quantity}`}. Si {offer.quantity === 1 ? "la reclamás" : "las reclamás"}, seguís en la lista por las que faltan, en el mismo lugar.
            </p>
          ) : null}
          {offer.limitRefusal ? (
            <p role="alert" className="mb-4 rounded-lg border border-[var(--border)] p-3">
              {offer.limitRefusal}
            </p>
          ) : (
            <>
              <p className="mb-4 text-sm">
                Al reclamarlas se arma tu compra con estas entradas y pasás a pagar como en cualquier compra (antes de pagar ves el total y el desglose). Desde ahí
                tenés el tiempo de una compra para pagar; si no pagás, las entradas pasan a la siguiente persona de la lista.
              </p>
              <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
                <FormErrors id={form.errorId} errors={form.errors} />
                <PayerInfoFields fields={fields} customFields={customFields} holderLabels={holderLabels} coupon={false} sends={offer.quantity === 1 ? "la entrada" : "las entradas"} />
                <div className="flex sm:justify-end">
                  <Button type="submit" pending={submitting} pendingLabel="Reservando…" className="min-h-12 w-full text-base sm:w-auto">
                    Reclamar y pasar a pagar
                  </Button>
                </div>
              </Form>
            </>
          )}
        </>
      ) : (
        <p>
          {offer.status === "claimed"
            ? "Ya reclamaste estas entradas: la compra está en tu email y en Mis tickets cuando la pagues."
            : "Esta reserva ya no está disponible: venció o saliste de la lista, y las entradas pasaron a la siguiente persona."}
        </p>
      )}
      <p className="mt-6 flex flex-wrap gap-x-4 text-sm">
        <Link to="/cuenta/lista-de-espera" className="inline-flex min-h-11 items-center text-[var(--accent)] underline underline-offset-2">
          Mis lugares en listas de espera
        </Link>
        <Link to={`/eventos/${offer.eventSlug}`} className="inline-flex min-h-11 items-center text-[var(--accent)] underline underline-offset-2">
          Ver el evento
        </Link>
      </p>
    </AccountPage>
  );
}
