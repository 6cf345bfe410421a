import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { formatEventStart } from "#common/dates";
import { formatMoney } from "#common/money";
import { withoutNationalTaxesOf } from "#server/orders/price-display";
import { serviceFeeRateLabel } from "#common/pricing";
import { cacheHeadersFrom } from "#app/lib/cache.server";
import { PICKER_PAYMENT_METHODS, previewCart, readSavedCart, restoreCart, savedCartCookie, type StoredCart } from "#app/lib/cart.server";
import { errorMessages } from "#app/lib/domain-errors.server";
import { getRequestContext } from "#app/lib/session.server";
import { DroppedNotice, ReferralBanner } from "#app/components/events/Notices";
import { buttonClasses } from "#app/components/ui/Button";
import { PayerInfoFields, payerFieldLabel } from "#app/components/checkout/PayerInfoFields";
import { ErrorSummary } from "#app/components/checkout/ErrorSummary";
import { MoneyLines } from "#app/components/checkout/MoneyLines";
import { getFormProps, usePayerForm } from "#app/components/checkout/usePayerForm";
import { payerInfoSchema } from "#app/components/checkout/schema";
import { checkoutFailure, domainFormErrors, payerDefaults, redirectToCheckout } from "#app/lib/checkout-reply.server";
import { useIsSubmitting } from "#app/components/ui/useIsSubmitting";
import { Button } from "#app/components/ui/Button";
import { getUserById } from "#server/accounts/users";
import { getCheckoutQuestions, startCheckout } from "#server/orders/checkout";
import { offersFacturaA } from "#server/invoicing/tax-details";
import { seatLabels } from "#server/seating/buyer";
import { orderHold } from "#server/orders/preview";
import type { Ctx } from "#server/context";
import { eventPath, findReferrer, loadPublicEventOr404 } from "./eventos.$slug.server";
import { OrderLines } from "#app/components/checkout/OrderLines";
import { OrderProblems } from "#app/components/checkout/OrderProblems";
import { toQueueOnRefusal } from "#app/components/queue/redirect.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Tu compra: ${data.event.name} · Tribuna` : "Tu compra · Tribuna" },
  { name: "robots", content: "noindex" },
];

export const EMPTY_CART_MESSAGE = "Tu compra está vacía: elegí tus entradas en la página del evento.";
export const CHANGED_CART_MESSAGE = "Revisá tu compra y volvé a confirmar.";

/** The cart cookie restored against the event as it is now, plus what the form asks. */
async function loadCheckout(request: Request, ctx: Ctx, slug: string) {
  const saved = readSavedCart(request, slug);
  const publicEvent = await loadPublicEventOr404(ctx, slug, { accessCode: saved?.accessCode, presaleCode: saved?.presaleCode });
  let cart: StoredCart = { items: [] };
  let dropped: string[] = [];
  let changed = false;
  if (saved) {
    // Straight from the picker: bank-transfer tickets go on too (the event page's restore still drops them).
    const restored = restoreCart(publicEvent, saved, { paymentMethods: PICKER_PAYMENT_METHODS });
    cart = restored.cart;
    dropped = restored.messages;
    changed = restored.changed;
  }
  const questions = await getCheckoutQuestions(ctx, publicEvent.event.id);
  const units = cart.items.reduce((sum, i) => sum + i.qty, 0);
  return { saved, publicEvent, cart, dropped, changed, questions, holders: questions.oneHolderPerTicket ? units : 0 };
}

/** The coupon the buyer typed on the event page, when the saved cart keeps one. */
function savedCoupon(cart: StoredCart | null): string {
  return cart?.couponCode ?? "";
}

/**
 * `/checkout/payer-info/{eventSlug}`: the saved cart restored against the
 * event as it is now (what was dropped and why; the cookie is rewritten with
 * what is left), and the form with the payer (prefilled from the account),
 * one holder per ticket when the event asks, its custom fields and a coupon.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const slug = (params.eventSlug ?? "").toLowerCase();
  const { ctx, headers } = await getRequestContext(request);
  const { saved, publicEvent, cart, dropped, changed, questions, holders } = await loadCheckout(request, ctx, slug);
  if (changed) headers.append("Set-Cookie", savedCartCookie(publicEvent.event.slug, cart));
  const referrer = cart.referredNick ? await findReferrer(ctx, publicEvent, cart.referredNick) : null;

  const tickets = new Map(publicEvent.ticketTypes.map((t) => [t.id, t]));
  const { dates, event } = publicEvent;
  // Priced and checked by the domain (previewOrder), as createOrder will: the lines, the saved coupon (left out, and
  // said why, when it no longer applies), the fee on what is left, the total, the payment method and its hold.
  // While the event's queue is on, only an admitted person gets here: anyone else goes to /fila/{slug}.
  const priced = cart.items.length ? await previewCart(ctx, event.slug, cart, { dropBadCoupon: true }).catch(toQueueOnRefusal(event.slug, headers)) : null;
  const preview = priced?.ok ? priced.preview : null;
  const refusal = priced && !priced.ok ? priced.error : null;
  const needsDate = Boolean(refusal?.fieldErrors.eventDateId) && !cart.eventDateId && dates.length > 1;
  const problems = refusal && !needsDate ? errorMessages(refusal) : [];
  if (priced?.ok && priced.couponProblem) problems.push(`Sacamos el cupón ${cart.couponCode}: ${priced.couponProblem}`);
  // Refused: the lines as the event shows them, so the buyer sees what to change.
  const items = preview
    ? preview.lines.map((l) => ({ ticketId: l.ticketTypeId, name: l.name, qty: l.qty, unitPrice: formatMoney(l.unitPrice), subtotal: formatMoney(l.subtotal) }))
    : cart.items.flatMap((item) => {
        const ticket = tickets.get(item.ticketId);
        return ticket ? [{ ticketId: item.ticketId, name: ticket.name, qty: item.qty, unitPrice: formatMoney(ticket.price), subtotal: formatMoney(ticket.price * item.qty) }] : [];
      });
  const date = preview?.date ?? dates.find((d) => d.id === cart.eventDateId) ?? (dates.length === 1 ? dates[0] : undefined);

  const user = ctx.actor.kind === "user" ? await getUserById(ctx, ctx.actor.userId) : undefined;
  const payer = {
    ...payerDefaults(user),
    // A saved coupon that no longer applies was left out of the total (and said why): not offered again.
    couponCode: priced?.ok && priced.couponProblem ? "" : savedCoupon(saved),
  };
  // Each holder row says which ticket it is for.
  const holderLabels = questions.oneHolderPerTicket
    ? cart.items.flatMap((item) => Array.from({ length: item.qty }, () => tickets.get(item.ticketId)?.name ?? "Entrada"))
    : [];

  headers.set("Cache-Control", "private, no-store");
  return data(
    {
      event: { name: event.name, slug: event.slug, venue: `${event.venue.name}, ${event.venue.city}` },
      // The event's date line ("Lunes 7 de diciembre de 2026 · 23:00 h"), as tickets and emails say it.
      date: date ? { label: formatEventStart(date.startsAt), startsIso: date.startsAt.toISOString() } : null,
      needsDate,
      items,
      problems,
      // The money, the method and the hold only when the domain priced the selection (else the problems say why).
      priced: Boolean(preview),
      subtotal: preview ? formatMoney(preview.subtotal) : null,
      discount: preview && preview.discount > 0 ? formatMoney(preview.discount) : null,
      couponCode: preview?.coupon?.code ?? null,
      serviceFeeLabel: serviceFeeRateLabel(event.serviceFeeBps),
      serviceFee: preview && preview.serviceFeeBps > 0 ? formatMoney(preview.serviceFee) : null,
      total: preview ? formatMoney(preview.total) : null,
      withoutNationalTaxes: preview ? withoutNationalTaxesOf(preview.subtotal - preview.discount, preview.serviceFee) : null,
      // How the tickets are paid and for how long they are held (the domain's words: "15 minutos", "48 horas"). FREE
      // only when the tickets themselves are: the coupon can still be changed below, so the page does not promise it.
      paymentMethod: preview ? (preview.subtotal === 0 ? "FREE" : preview.requiredPaymentMethod) : null,
      free: preview ? preview.subtotal === 0 : false,
      holdLabel: preview ? orderHold(preview.requiredPaymentMethod).label : null,
      dropped,
      referrer: referrer ? { firstName: referrer.firstName, lastName: referrer.lastName } : null,
      backTo: cart.seats?.length ? `/asientos/${event.slug}` : eventPath(event.slug, referrer?.nick),
      // Reserved seating (docs/seating.md): the seats chosen on the map, held when the form is sent.
      seats: await seatLabels(ctx, event.slug, cart.seats ?? []),
      payer,
      customFields: questions.customFields,
      holders,
      holderLabels,
      // "Necesito factura A" only when Tribuna issues A (docs/invoicing.md).
      facturaA: offersFacturaA(),
    },
    { headers },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) => cacheHeadersFrom(actionHeaders ?? loaderHeaders);

/**
 * Holds the tickets with `startCheckout` (the same function as GraphQL
 * createOrder) and sends the buyer to the summary with the access token. The
 * cart cookie is cleared only then: a refused or out-of-stock attempt keeps it.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const slug = (params.eventSlug ?? "").toLowerCase();
  const { ctx, headers } = await getRequestContext(request);
  headers.set("Cache-Control", "private, no-store");
  const { publicEvent, cart, dropped, questions, holders } = await loadCheckout(request, ctx, slug);
  const schema = payerInfoSchema({ customFields: questions.customFields, holders, facturaA: offersFacturaA() });
  const submission = parseWithZod(await request.formData(), { schema });
  const posted = new Set(Object.keys(submission.payload ?? {}));
  const isField = (name: string) => posted.has(name) || name.startsWith("attendees[") || name.startsWith("customFields.") || name.startsWith("invoice.");
  if (submission.status !== "success") {
    // One answer with everything to fix: the fields' errors and, priced by the domain as createOrder would, the
    // coupon's (or the tickets') problem, instead of one more round for each (decision 163).
    const typed = submission.payload.couponCode;
    const couponCode = !submission.error?.couponCode && typeof typed === "string" && typed.trim() ? typed.trim() : null;
    const priced = cart.items.length && !dropped.length ? await previewCart(ctx, publicEvent.event.slug, cart, { couponCode }) : null;
    const refused = priced && !priced.ok ? domainFormErrors(priced.error, isField) : {};
    return data({ result: submission.reply(refused) }, { status: 400, headers });
  }
  // The event changed since the page was shown (stock ran out, a ticket was paused): say what, keep the cart as it was.
  if (dropped.length) return data({ result: submission.reply({ formErrors: [...dropped, CHANGED_CART_MESSAGE] }) }, { status: 409, headers });
  if (!cart.items.length) return data({ result: submission.reply({ formErrors: [EMPTY_CART_MESSAGE] }) }, { status: 400, headers });

  const { couponCode, attendees, customFields, invoice, ...payer } = submission.value;
  try {
    // Priced and checked once, inside createOrder: without a method the order takes the tickets' own.
    const started = await startCheckout(ctx, {
      eventSlug: publicEvent.event.slug,
      eventDateId: cart.eventDateId,
      items: cart.items,
      seats: cart.seats,
      payer,
      accessCode: cart.accessCode,
      presaleCode: cart.presaleCode,
      referredNick: cart.referredNick,
      couponCode,
      attendees: attendees ?? undefined,
      customFields: customFields ?? undefined,
      invoice,
    }).catch(toQueueOnRefusal(publicEvent.event.slug, headers));
    headers.append("Set-Cookie", savedCartCookie(publicEvent.event.slug, { items: [] }));
    // Nothing to pay (free tickets, a 100 % coupon): straight to the confirmation.
    return redirectToCheckout(started, headers);
  } catch (error) {
    if (error instanceof Response) throw error;
    const { result, status } = checkoutFailure(error, submission, isField);
    return data({ result }, { status, headers });
  }
}

export default function PayerInfoPage() {
  const { holders, customFields } = useLoaderData<typeof loader>();
  // A new form state when the questions change (another number of holders, other custom fields).
  return <PayerInfoContent key={`${holders}:${customFields.map((f) => f.id).join(",")}`} />;
}

/**
 * The page. After a submit with errors, the summary at the top lists them
 * with links to the fields: without JavaScript the answer opens at the top,
 * where it is; with JavaScript it gets the focus when the server answers
 * (every submit goes there: decision 163).
 */
function PayerInfoContent() {
  const loaderData = useLoaderData<typeof loader>();
  const { event, date, needsDate, items, seats, problems, priced, subtotal, discount, couponCode, serviceFeeLabel, serviceFee, total, withoutNationalTaxes, paymentMethod, holdLabel, dropped, referrer, backTo } = loaderData;
  const { payer, customFields, holders, holderLabels, facturaA } = loaderData;
  const actionData = useActionData<typeof action>();
  const [form, fields] = usePayerForm({
    id: "payer-info",
    lastResult: actionData?.result,
    // One row per holder from the start (the form lists as many rows as its value has).
    defaultValue: { ...payer, attendees: holders ? Array.from({ length: holders }, () => ({ documentType: "dni" })) : undefined },
    // The browser checks the custom fields with the server's rule; the rest natively (usePayerForm).
    customFields,
  });
  const submitting = useIsSubmitting();
  const [attempts, setAttempts] = useState(0);
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (actionData) setAttempts((n) => n + 1);
  }, [actionData]);
  useEffect(() => {
    if (!attempts) return;
    const frame = requestAnimationFrame(() => {
      summary.current?.focus({ preventScroll: true });
      summary.current?.scrollIntoView({ block: "start" });
    });
    return () => cancelAnimationFrame(frame);
  }, [attempts]);
  const fieldErrors = Object.entries(form.allErrors)
    .filter(([name, messages]) => name !== "" && name !== form.name && messages?.length)
    .map(([name, messages]) => ({ fieldId: `${form.id}-${name}`, label: payerFieldLabel(name, customFields), message: messages[0] }));
  const showSummary = Boolean(actionData) || attempts > 0;

  return (
    <main className="mx-auto flex w-full max-w-2xl flex-col gap-4 px-4 py-5 sm:px-6 sm:py-8">
      {showSummary ? <ErrorSummary ref={summary} id={form.errorId} errors={fieldErrors} formErrors={form.errors} /> : null}
      <header>
        <p className="text-sm font-bold tracking-wide text-[var(--accent)]">TU COMPRA</p>
        <h1 className="text-2xl font-bold leading-tight sm:text-3xl">{event.name}</h1>
        <p className="mt-1 text-sm text-[var(--muted)]">{event.venue}</p>
        {date ? (
          <p className="mt-1 text-sm">
            <time dateTime={date.startsIso}>{date.label}</time>
          </p>
        ) : null}
      </header>

      {referrer ? <ReferralBanner referrer={referrer} /> : null}
      <DroppedNotice messages={dropped} />

      {items.length ? (
        <section aria-labelledby="elegiste" className="rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4">
          <h2 id="elegiste" className="text-lg font-bold">
            Lo que elegiste
          </h2>
          {/* The final price first (docs/prices.md), then what it is made of. */}
          {priced && subtotal && total ? (
            <MoneyLines
              subtotal={subtotal}
              discount={discount}
              serviceFee={serviceFee}
              serviceFeeLabel={serviceFeeLabel}
              total={total}
              withoutNationalTaxes={withoutNationalTaxes}
              className="mt-2"
            />
          ) : null}
          <OrderLines lines={items.map((item) => ({ key: item.ticketId, ...item }))} />
          {seats.length ? (
            <ul className="mt-2 flex flex-col gap-1 text-sm" aria-label="Tus asientos" data-testid="payer-seats">
              {seats.map((label) => (
                <li key={label}>{label}</li>
              ))}
            </ul>
          ) : null}
          {couponCode ? <p className="mt-2 text-xs text-[var(--muted)]">Con el cupón {couponCode}. Si lo cambiás abajo, el total se actualiza en el resumen antes de pagar.</p> : null}
          <OrderProblems problems={problems} />
          {needsDate ? (
            <p role="alert" className="mt-3 text-sm text-red-600 dark:text-red-400">
              Te falta elegir la fecha. <Link to={backTo} className="underline">Elegila acá</Link>.
            </p>
          ) : null}
        </section>
      ) : (
        <section className="rounded-xl border border-dashed border-[var(--border)] px-4 py-8 text-center">
          <h2 className="text-lg font-bold">Tu compra está vacía</h2>
          <p className="mt-1 text-sm text-[var(--muted)]">Elegí tus entradas en la página del evento.</p>
        </section>
      )}

      {items.length && paymentMethod ? (
        <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
          <PayerInfoFields fields={fields} customFields={customFields} holderLabels={holderLabels} facturaA={facturaA} />
          <p className="text-sm text-[var(--muted)]">
            {/* The hold is the domain's (previewOrder): 15 minutos for Mercado Pago, 48 horas for a transfer. */}
            {paymentMethod === "FREE"
              ? "Estas entradas son gratis: al confirmar te las mandamos por email."
              : paymentMethod === "BANK_TRANSFER"
                ? `Estas entradas se pagan por transferencia bancaria: te reservamos las entradas ${holdLabel} para que subas el comprobante.`
                : `Vas a pagar con Mercado Pago. Te reservamos las entradas ${holdLabel}.`}
          </p>
          <div className="flex sm:justify-end">
            <Button type="submit" pending={submitting} pendingLabel="Reservando…" className="min-h-12 w-full text-base sm:w-auto">
              {paymentMethod === "FREE" ? "Confirmar" : "Continuar al pago"}
            </Button>
          </div>
        </Form>
      ) : null}

      <div className="flex flex-wrap gap-3">
        <Link to={backTo} className={buttonClasses(items.length ? "secondary" : "primary", "min-h-11")}>
          {items.length ? "Cambiar entradas" : "Volver al evento"}
        </Link>
        <Link to="/" className={buttonClasses("ghost", "min-h-11")}>
          Ver otros eventos
        </Link>
      </div>
    </main>
  );
}
