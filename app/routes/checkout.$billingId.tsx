import { purchaseWords } from "#common/order-words";
import { purchaseKindOfOrders } from "#server/orders/purchase-kind";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { DateTime } from "luxon";
import { useEffect } from "react";
import { formatEventStart, TIME_ZONE } from "#common/dates";
import { formatMoney } from "#common/money";
import { withoutNationalTaxesOf } from "#server/orders/price-display";
import { serviceFeeRateLabel } from "#common/pricing";
import { getRequestContext } from "#app/lib/session.server";
import { FormErrors } from "#app/components/account/Notice";
import { HoldCountdown, HoldExpired } from "#app/components/checkout/Countdown";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { isDomainError } from "#server/errors";
import { errorMessages, pageErrorResponse } from "#app/lib/domain-errors.server";
import { getCheckoutSummary, mercadoPagoBrowserConfig, openPayment } from "#server/orders/checkout";
import { eventPath } from "./eventos.$slug.server";
import { OrderLines } from "#app/components/checkout/OrderLines";
import { MoneyLines } from "#app/components/checkout/MoneyLines";
import { MercadoPagoWallet } from "#app/components/checkout/MercadoPagoWallet";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Pagá tu compra ${data.order.code} · Tribuna` : "Tu compra · Tribuna" },
  { name: "robots", content: "noindex" },
];

/** What the buyer may not read is simply not there (no hint that the billing exists). */
async function summaryOr404(request: Request, billingId: string) {
  const { ctx, headers } = await getRequestContext(request);
  const token = new URL(request.url).searchParams.get("t");
  try {
    return { ctx, headers, summary: await getCheckoutSummary(ctx, billingId, { token }) };
  } catch (error) {
    throw pageErrorResponse(error, { conceal: true, notFoundText: "No encontramos tu compra." });
  }
}

/** "21:45" the same day; "el 24/11 a las 21:45" for a bank transfer's 48-hour hold. */
function holdLabel(hold: Date, now: Date) {
  const at = DateTime.fromJSDate(hold).setZone(TIME_ZONE);
  return at.hasSame(DateTime.fromJSDate(now).setZone(TIME_ZONE), "day") ? at.toFormat("HH:mm") : at.toFormat("HH:mm 'del' dd/MM");
}

/**
 * `/checkout/{billingId}?t=…`: the summary before paying (items, subtotal,
 * coupon discount, service fee on what is left with the percentage the
 * organizer accepted, total: in that order), the hold's countdown and the
 * payment methods the tickets allow.
 * A paid billing goes to its tickets.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const billingId = params.billingId ?? "";
  const { ctx, headers, summary } = await summaryOr404(request, billingId);
  headers.set("Cache-Control", "private, no-store");
  const { order, billing, event, startsAt, held, allows } = summary;
  if (billing.status === "approved") throw redirect(summary.ticketsPath, { headers });
  const { missingPublicKey, wallet } = await mercadoPagoBrowserConfig(ctx, summary);

  const expired = !held && (order.status === "expired" || billing.status === "cancelled" || (order.status === "draft" && !!order.holdExpiresAt));
  const hold = order.holdExpiresAt;
  // A drink order speaks of consumiciones and sends back to the menu (docs/wording.md).
  const kind = await purchaseKindOfOrders(ctx.db, [order.id]);
  return data(
    {
      kind,
      order: {
        code: order.code,
        items: order.items.map((i) => ({ id: i.id, name: i.name, qty: i.qty, unitPrice: formatMoney(i.unitPrice), subtotal: formatMoney(i.unitPrice * i.qty) })),
        subtotal: formatMoney(order.subtotal),
        serviceFee: formatMoney(order.serviceFee),
        serviceFeeLabel: serviceFeeRateLabel(event?.serviceFeeBps ?? 0),
        discount: order.discount > 0 ? formatMoney(order.discount) : null,
        total: formatMoney(order.total),
        withoutNationalTaxes: withoutNationalTaxesOf(order.subtotal - order.discount, order.serviceFee),
        paymentMethod: order.paymentMethod,
      },
      event: event
        ? {
            name: event.name,
            venue: `${event.venueName}, ${event.city}`,
            href: eventPath(event.slug),
            // Where to choose again: the menu for a drink order.
            chooseHref: kind === "menu" ? `/menu/${event.slug}` : eventPath(event.slug),
            // The event's date line, as tickets and emails say it.
            whenLabel: startsAt ? formatEventStart(startsAt) : null,
          }
        : null,
      hold: held && hold ? { expiresAtIso: hold.toISOString(), timeLabel: holdLabel(hold, new Date()) } : null,
      expired,
      // Anything else (refunded, charged back): nothing to pay here.
      closed: !held && !expired,
      allows,
      bankTransferHref: summary.bankTransferPath,
      // Decision 46: without the public key (ours, or the organizer's connected account's) the page logs an error to the console.
      missingPublicKey,
      wallet,
    },
    { headers },
  );
}

/** "Pagar con Mercado Pago": opens (or reopens, after a rejection) the payment and sends the buyer to the provider. */
export async function action({ request, params }: ActionFunctionArgs) {
  const billingId = params.billingId ?? "";
  const { ctx, headers } = await summaryOr404(request, billingId);
  const token = new URL(request.url).searchParams.get("t");
  try {
    const { paymentUrl } = await openPayment(ctx, billingId, { token });
    return redirect(paymentUrl, { headers });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return data({ errors: errorMessages(error) }, { status: 400, headers });
  }
}

export default function CheckoutSummaryPage() {
  const { kind, order, event, hold, expired, closed, allows, bankTransferHref, missingPublicKey, wallet } = useLoaderData<typeof loader>();
  const words = purchaseWords(kind);
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const paying = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const eventHref = event?.href ?? "/";
  const chooseHref = event?.chooseHref ?? "/";
  // Decision 46: without the payment public key, an error is logged to the console (on load and on client navigation).
  useEffect(() => {
    if (missingPublicKey) console.error("Missing payment public key");
  }, [missingPublicKey]);
  return (
    <main className="mx-auto flex w-full max-w-2xl flex-col gap-5 px-4 py-6 sm:px-6 sm:py-8">
      <header>
        <p className="text-sm font-bold tracking-wide text-[var(--accent)]">RESUMEN DE TU COMPRA</p>
        <h1 className="text-2xl font-bold leading-tight sm:text-3xl">{event?.name ?? "Tu compra"}</h1>
        {event ? <p className="mt-1 text-sm text-[var(--muted)]">{event.venue}</p> : null}
        {event?.whenLabel ? <p className="mt-1 text-sm">{event.whenLabel}</p> : null}
        <p className="mt-1 text-sm">
          Código de compra: <strong data-order-code="">{order.code}</strong>
        </p>
      </header>

      {hold ? <HoldCountdown expiresAtIso={hold.expiresAtIso} timeLabel={hold.timeLabel} eventHref={chooseHref} kind={kind} /> : null}
      {expired ? <HoldExpired eventHref={chooseHref} kind={kind} /> : null}
      {closed ? (
        <p role="status" className="rounded-lg border border-[var(--border)] px-4 py-3 text-sm">
          Esta compra ya no se puede pagar.
        </p>
      ) : null}

      <section aria-labelledby="detalle" className="rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4">
        <h2 id="detalle" className="text-lg font-bold">
          Detalle
        </h2>
        {/* The final price first (docs/prices.md), then what it is made of. */}
        <MoneyLines
          subtotal={order.subtotal}
          discount={order.discount}
          serviceFee={order.serviceFee}
          serviceFeeLabel={order.serviceFeeLabel}
          total={order.total}
          withoutNationalTaxes={order.withoutNationalTaxes}
          className="mt-2"
        />
        <OrderLines lines={order.items.map((item) => ({ key: item.id, ...item }))} />
      </section>

      {hold ? (
        <section aria-labelledby="como-pagar" className="flex flex-col gap-3">
          <h2 id="como-pagar" className="text-lg font-bold">
            Cómo pagar
          </h2>
          <FormErrors id="pago-errores" errors={actionData?.errors} />
          <div className="rounded-xl border border-[var(--border)] p-4">
            <h3 className="font-bold">Mercado Pago</h3>
            {allows.MERCADO_PAGO ? (
              <div className="mt-2">
                <p className="text-sm text-[var(--muted)]">Tarjeta de crédito o débito, o dinero en tu cuenta de Mercado Pago.</p>
                {wallet ? (
                  <MercadoPagoWallet publicKey={wallet.publicKey} preferenceId={wallet.preferenceId} fallback={<PayWithMercadoPago total={order.total} paying={paying} />} />
                ) : (
                  <PayWithMercadoPago total={order.total} paying={paying} />
                )}
              </div>
            ) : (
              <p className="mt-1 text-sm text-[var(--muted)]">Estas {words.plural} no se pagan con Mercado Pago: el organizador pide transferencia bancaria.</p>
            )}
          </div>
          <div className="rounded-xl border border-[var(--border)] p-4">
            <h3 className="font-bold">Transferencia bancaria</h3>
            {allows.BANK_TRANSFER ? (
              <>
                <p className="mt-1 text-sm text-[var(--muted)]">Transferí a la cuenta del organizador y subí el comprobante. Lo revisa antes de que venza tu reserva.</p>
                <a href={bankTransferHref} className={buttonClasses("primary", "mt-3 min-h-11")}>
                  Pagar por transferencia
                </a>
              </>
            ) : (
              <p className="mt-1 text-sm text-[var(--muted)]">Estas {words.plural} no se pagan por transferencia: el organizador las cobra con Mercado Pago.</p>
            )}
          </div>
        </section>
      ) : null}

      <div className="flex flex-wrap gap-3">
        <Link to={eventHref} className={buttonClasses("ghost", "min-h-11")}>
          Volver al evento
        </Link>
      </div>
    </main>
  );
}

/** Our own button: a plain form post (works without JavaScript) that redirects to Mercado Pago. */
function PayWithMercadoPago({ total, paying }: { total: string; paying: boolean }) {
  return (
    <Form method="post">
      <Button type="submit" name="intent" value="mercadopago" pending={paying} pendingLabel="Abriendo Mercado Pago…" className="mt-3 min-h-11">
        Pagar {total} con Mercado Pago
      </Button>
    </Form>
  );
}
