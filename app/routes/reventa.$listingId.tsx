import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatMoney } from "#common/money";
import { serviceFeeOf } from "#common/pricing";
import { getRequestContext } from "#app/lib/session.server";
import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { checkoutFailure, payerDefaults, redirectToCheckout } from "#app/lib/checkout-reply.server";
import { PayerInfoFields } from "#app/components/checkout/PayerInfoFields";
import { getFormProps, usePayerForm } from "#app/components/checkout/usePayerForm";
import { payerInfoSchema } from "#app/components/checkout/schema";
import { FormErrors } from "#app/components/account/Notice";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { useIsSubmitting } from "#app/components/ui/useIsSubmitting";
import { getUserById } from "#server/accounts/users";
import { startCheckout } from "#server/orders/checkout";
import { resaleListingForBuyer } from "#server/resale/listings";

export const meta: MetaFunction = () => [{ title: "Reventa oficial · Tribuna" }, { name: "robots", content: "noindex" }];

const schema = payerInfoSchema({ customFields: [], holders: 0 });

/**
 * `/reventa/{listingId}`: buying one ticket of the official resale (docs/resale.md)
 * through the same checkout as any purchase (startCheckout with
 * `resaleListingId`): the payer, then Mercado Pago. Works without JavaScript.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  headers.set("Cache-Control", "private, no-cache");
  try {
    const offer = await resaleListingForBuyer(ctx, params.listingId ?? "");
    const user = ctx.actor.kind === "user" ? await getUserById(ctx, ctx.actor.userId) : undefined;
    const fee = serviceFeeOf(offer.price, offer.serviceFeeBps);
    return data(
      {
        offer: { eventName: offer.eventName, eventSlug: offer.eventSlug, ticketTypeName: offer.ticketTypeName, price: formatMoney(offer.price), fee: formatMoney(fee), total: formatMoney(offer.price + fee), available: offer.available },
        payer: payerDefaults(user),
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
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400, headers });
  const { couponCode: _coupon, attendees: _attendees, customFields: _answers, ...payer } = submission.value;
  try {
    const started = await startCheckout(ctx, { eventSlug: "", items: [], payer, resaleListingId: params.listingId ?? "", paymentMethod: "MERCADO_PAGO" });
    return redirectToCheckout(started, headers);
  } catch (error) {
    const { result, status } = checkoutFailure(error, submission);
    return data({ result }, { status, headers });
  }
}

export default function ResalePurchasePage() {
  const { offer, payer } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = usePayerForm({ id: "reventa", lastResult: actionData?.result, defaultValue: payer });
  const submitting = useIsSubmitting();
  return (
    <main className="mx-auto flex w-full max-w-2xl flex-col gap-4 px-4 py-5 sm:px-6 sm:py-8">
      <h1 className="text-2xl font-bold">Reventa oficial: {offer.eventName}</h1>
      <p>
        {offer.ticketTypeName}: {offer.price} + {offer.fee} de cargo por servicio = <strong>{offer.total}</strong>.
      </p>
      <p className="text-sm text-[var(--muted)]">
        Es una entrada que alguien que no puede ir devolvió al precio que pagó. Cuando pagás, te mandamos una entrada nueva con un QR nuevo a tu nombre, y el QR de la persona que la vendió deja de servir.
      </p>
      {offer.available ? (
        <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
          <FormErrors id={form.errorId} errors={form.errors} />
          <PayerInfoFields fields={fields} customFields={[]} holderLabels={[]} sends="la entrada" />
          <p className="text-sm text-[var(--muted)]">Vas a pagar con Mercado Pago. Te reservamos la entrada 15 minutos.</p>
          <div className="flex sm:justify-end">
            <Button type="submit" pending={submitting} pendingLabel="Reservando…" className="min-h-12 w-full text-base sm:w-auto">
              Continuar al pago
            </Button>
          </div>
        </Form>
      ) : (
        <p>
          Esta entrada ya no está disponible: alguien la está comprando o ya la compró.{" "}
          <Link to={`/eventos/${offer.eventSlug}`} className={buttonClasses("secondary")}>
            Volver al evento
          </Link>
        </p>
      )}
    </main>
  );
}
