import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatMoney } from "#common/money";
import { unitFinalPrice } from "#common/pricing";
import { getRequestContext, requireUser } from "#app/lib/session.server";
import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { checkoutFailure, payerDefaults, redirectToCheckout } from "#app/lib/checkout-reply.server";
import { parsePayerForm, payerQuestionsFor } from "#app/lib/payer-questions.server";
import { MoneyLines } from "#app/components/checkout/MoneyLines";
import { PayerInfoFields } from "#app/components/checkout/PayerInfoFields";
import { getFormProps, usePayerForm } from "#app/components/checkout/usePayerForm";
import { FormErrors } from "#app/components/account/Notice";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { useIsSubmitting } from "#app/components/ui/useIsSubmitting";
import { getUserById } from "#server/accounts/users";
import type { Ctx } from "#server/context";
import { startCheckout } from "#server/orders/checkout";
import { withoutNationalTaxesOf } from "#server/orders/price-display";
import { resaleListingForBuyer } from "#server/resale/listings";

export const meta: MetaFunction = () => [{ title: "Reventa oficial · Tribuna" }, { name: "robots", content: "noindex" }];

async function load(ctx: Ctx, listingId: string) {
  const offer = await resaleListingForBuyer(ctx, listingId);
  return { offer, questions: await payerQuestionsFor(ctx, offer.eventId, [offer.ticketTypeName]) };
}

/**
 * `/reventa/{listingId}`: buying one ticket of the official resale (docs/resale.md)
 * through the same checkout as any purchase (startCheckout with
 * `resaleListingId`): the payer, the event's custom fields and, on a named
 * event, the new holder (name and DNI), then Mercado Pago. The event's
 * per-account limit is said before the form. Works without JavaScript.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  // "Iniciar sesión" (an event with a per-account limit) comes back here once signed in.
  if (new URL(request.url).searchParams.has("ingresar")) await requireUser(request);
  const { ctx, headers } = await getRequestContext(request);
  headers.set("Cache-Control", "private, no-cache");
  try {
    const { offer, questions } = await load(ctx, params.listingId ?? "");
    const user = ctx.actor.kind === "user" ? await getUserById(ctx, ctx.actor.userId) : undefined;
    const { serviceFee: fee, final } = unitFinalPrice(offer.price, offer.serviceFeeBps);
    return data(
      {
        offer: {
          id: params.listingId ?? "",
          eventName: offer.eventName,
          eventSlug: offer.eventSlug,
          ticketTypeName: offer.ticketTypeName,
          price: formatMoney(offer.price),
          fee: fee > 0 ? formatMoney(fee) : null,
          total: formatMoney(final),
          withoutNationalTaxes: withoutNationalTaxesOf(offer.price, fee),
          available: offer.available,
          limitRefusal: offer.limitRefusal,
          signedIn: ctx.actor.kind === "user",
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
  const { ctx, headers } = await getRequestContext(request);
  headers.set("Cache-Control", "private, no-store");
  const { questions } = await load(ctx, params.listingId ?? "").catch((error: unknown) => {
    throw pageErrorResponse(error, { headers });
  });
  const { submission, isField } = await parsePayerForm(request, questions);
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400, headers });
  const { couponCode: _coupon, attendees, customFields, ...payer } = submission.value;
  try {
    const started = await startCheckout(ctx, {
      eventSlug: "",
      items: [],
      payer,
      attendees: attendees ?? undefined,
      customFields: customFields ?? undefined,
      resaleListingId: params.listingId ?? "",
      paymentMethod: "MERCADO_PAGO",
    });
    return redirectToCheckout(started, headers);
  } catch (error) {
    const { result, status } = checkoutFailure(error, submission, isField);
    return data({ result }, { status, headers });
  }
}

export default function ResalePurchasePage() {
  const { offer, payer, customFields, holders, holderLabels } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = usePayerForm({
    id: "reventa",
    lastResult: actionData?.result,
    // One row per holder from the start (the form lists as many rows as its value has), as on the checkout's payer page.
    defaultValue: { ...payer, attendees: holders ? Array.from({ length: holders }, () => ({ documentType: "dni" })) : undefined },
    customFields,
  });
  const submitting = useIsSubmitting();
  return (
    <main className="mx-auto flex w-full max-w-2xl flex-col gap-4 px-4 py-5 sm:px-6 sm:py-8">
      <h1 className="text-2xl font-bold">Reventa oficial: {offer.eventName}</h1>
      {/* The final price first, then the price without national taxes, then the breakdown (docs/prices.md). */}
      <MoneyLines
        label={`Precio de ${offer.ticketTypeName}`}
        subtotalLabel={offer.ticketTypeName}
        subtotal={offer.price}
        serviceFee={offer.fee}
        total={offer.total}
        withoutNationalTaxes={offer.withoutNationalTaxes}
        className="rounded-xl border border-[var(--border)] px-4 py-3"
      />
      <p className="text-sm text-[var(--muted)]">
        Es una entrada que alguien que no puede ir devolvió al precio que pagó. Cuando pagás, te mandamos una entrada nueva con un QR nuevo a tu nombre, y el QR de la persona que la vendió deja de servir.
      </p>
      {!offer.available ? (
        <p>
          Esta entrada ya no está disponible: alguien la está comprando o ya la compró.{" "}
          <Link to={`/eventos/${offer.eventSlug}`} className={buttonClasses("secondary")}>
            Volver al evento
          </Link>
        </p>
      ) : offer.limitRefusal ? (
        <div className="flex flex-col items-start gap-3">
          <p role="alert" className="rounded-lg border border-[var(--border)] p-3">
            {offer.limitRefusal}
          </p>
          {offer.signedIn ? (
            <Link to={`/eventos/${offer.eventSlug}`} className={buttonClasses("secondary")}>
              Volver al evento
            </Link>
          ) : (
            <Link to={`/reventa/${offer.id}?ingresar`} className={buttonClasses("primary")}>
              Iniciar sesión
            </Link>
          )}
        </div>
      ) : (
        <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <PayerInfoFields fields={fields} customFields={customFields} holderLabels={holderLabels} coupon={false} sends="la entrada" />
          <p className="text-sm text-[var(--muted)]">Vas a pagar con Mercado Pago. Te reservamos la entrada 15 minutos.</p>
          <div className="flex sm:justify-end">
            <Button type="submit" pending={submitting} pendingLabel="Reservando…" className="min-h-12 w-full text-base sm:w-auto">
              Continuar al pago
            </Button>
          </div>
        </Form>
      )}
    </main>
  );
}
