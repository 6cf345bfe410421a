import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatMoney } from "#common/money";
import { getUserById } from "#server/accounts/users";
import { purchaseWords } from "#common/order-words";
import { checkMenuPick, maxOrderable, MENU_CART_MESSAGES, menuCartLines, previewMenuOrder, publicMenu } from "#server/menu/menu";
import { serviceFeeRateLabel } from "#common/pricing";
import { withoutNationalTaxesLine } from "#common/tax-display";
import { unitPriceFigures, withoutNationalTaxesOf } from "#server/orders/price-display";
import { startCheckout } from "#server/orders/checkout";
import { menuCartCookie, readMenuCart } from "#app/lib/menu-cart.server";
import { getRequestContext } from "#app/lib/session.server";
import { FormErrors } from "#app/components/account/Notice";
import { useIsSubmitting } from "#app/components/ui/useIsSubmitting";
import { MoneyLines } from "#app/components/checkout/MoneyLines";
import { OrderLines } from "#app/components/checkout/OrderLines";
import { OrderProblems } from "#app/components/checkout/OrderProblems";
import { PayerInfoFields } from "#app/components/checkout/PayerInfoFields";
import { getFormProps, usePayerForm } from "#app/components/checkout/usePayerForm";
import { payerInfoSchema } from "#app/components/checkout/schema";
import { checkoutFailure, payerDefaults, redirectToCheckout } from "#app/lib/checkout-reply.server";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { toQueueOnRefusal } from "#app/components/queue/redirect.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Menú: ${data.event.name} · Tribuna` : "Menú · Tribuna" }];

const MENU_WORDS = purchaseWords("menu");
const lineOf = (formatted: string | null) => (formatted === null ? null : withoutNationalTaxesLine(formatted));
const CATEGORY_ORDER = ["drink", "food", "combo"] as const;
const CATEGORY_TITLES = { drink: "Bebidas", food: "Comidas", combo: "Combos" } as const;
// Only the action parses with it: the pure mark lets the browser bundle leave zod out.
const PAYER_SCHEMA = /* @__PURE__ */ payerInfoSchema({ customFields: [], holders: 0 });

async function loadMenu(request: Request, slug: string) {
  const { ctx, headers } = await getRequestContext(request);
  const menu = await publicMenu(ctx, slug);
  if (!menu) throw data({ message: "No encontramos el evento." }, { status: 404 });
  const { lines, changed } = menuCartLines(menu.items, readMenuCart(request, slug));
  return { ctx, headers, menu, lines, changed };
}

/**
 * `/menu/{slug}`: the event's menu on a phone, without JavaScript. Step one
 * picks quantities (saved in the cookie `menu-order-{slug}`); `?paso=datos`
 * asks who pays and sends them to the same checkout as tickets.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const slug = (params.slug ?? "").toLowerCase();
  const { ctx, headers, menu, lines, changed } = await loadMenu(request, slug);
  if (changed) headers.append("Set-Cookie", menuCartCookie(slug, lines.map((l) => ({ ticketId: l.item.id, qty: l.qty }))));
  const step = new URL(request.url).searchParams.get("paso") === "datos" && lines.length ? "payer" : "pick";
  const user = ctx.actor.kind === "user" ? await getUserById(ctx, ctx.actor.userId) : undefined;
  headers.set("Cache-Control", "private, no-store");
  // The payer step is priced by the domain (previewOrder, as the tickets' payer page): subtotal, service fee, total, hold.
  const priced = step === "payer" ? await previewMenuOrder(ctx, slug, lines.map((l) => ({ ticketId: l.item.id, qty: l.qty }))).catch(toQueueOnRefusal(slug, headers)) : null;
  const preview = priced?.ok ? priced.preview : null;
  // Each item's final price (its price plus the event's service fee on it) first, as the event page's picker (docs/prices.md).
  const figuresOf = (price: number) => unitPriceFigures(price, menu.event.serviceFeeBps);
  return data(
    {
      event: { name: menu.event.name, slug: menu.event.slug },
      step,
      changed,
      changedNotice: changed ? MENU_CART_MESSAGES.changed : null,
      sections: CATEGORY_ORDER.map((category) => ({
        title: CATEGORY_TITLES[category],
        items: menu.items
          .filter((i) => i.category === category)
          .map((i) => ({
            id: i.id,
            name: i.name,
            description: i.description,
            price: figuresOf(i.price).final,
            withoutNationalTaxesLine: lineOf(figuresOf(i.price).withoutNationalTaxes),
            imageUrl: i.imageUrl,
            max: maxOrderable(i),
            qty: lines.find((l) => l.item.id === i.id)?.qty ?? 0,
          })),
      })).filter((s) => s.items.length),
      lines: preview
        ? preview.lines.map((l) => ({ key: l.ticketTypeId, name: l.name, qty: l.qty, unitPrice: formatMoney(l.unitPrice), subtotal: formatMoney(l.subtotal) }))
        : lines.map((l) => ({ key: l.item.id, name: l.item.name, qty: l.qty, unitPrice: formatMoney(l.item.price), subtotal: formatMoney(l.qty * l.item.price) })),
      // Only what the domain priced; a refusal shows its reasons instead of a total.
      money: preview
        ? {
            subtotal: formatMoney(preview.subtotal),
            serviceFee: preview.serviceFee > 0 ? formatMoney(preview.serviceFee) : null,
            serviceFeeLabel: serviceFeeRateLabel(preview.serviceFeeBps),
            total: formatMoney(preview.total),
            withoutNationalTaxes: withoutNationalTaxesOf(preview.subtotal - preview.discount, preview.serviceFee),
          }
        : null,
      problems: priced && !priced.ok ? priced.problems : [],
      // "15 minutos" for Mercado Pago; null when nothing is due (free) or not priced.
      hold: preview?.hold?.label ?? null,
      free: preview?.free ?? false,
      payer: payerDefaults(user),
    },
    { headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const slug = (params.slug ?? "").toLowerCase();
  const { ctx, headers, menu, lines, changed } = await loadMenu(request, slug);
  headers.set("Cache-Control", "private, no-store");
  const form = await request.formData();
  if (form.get("intent") === "pick") {
    const picked = menu.items.map((item) => ({ ticketId: item.id, qty: Math.max(0, Math.trunc(Number(form.get(`qty.${item.id}`) ?? 0)) || 0) }));
    const errors = checkMenuPick(menu.items, picked);
    if (errors.length) return data({ pickErrors: errors, result: undefined }, { status: 400, headers });
    headers.append("Set-Cookie", menuCartCookie(slug, picked));
    return redirect(`/menu/${slug}?paso=datos`, { headers });
  }

  const submission = parseWithZod(form, { schema: PAYER_SCHEMA });
  if (submission.status !== "success") return data({ result: submission.reply(), pickErrors: [] }, { status: 400, headers });
  if (changed || !lines.length) return data({ result: submission.reply({ formErrors: [lines.length ? MENU_CART_MESSAGES.changed : MENU_CART_MESSAGES.empty] }), pickErrors: [] }, { status: 409, headers });
  const { couponCode, attendees: _attendees, customFields: _customFields, ...payer } = submission.value;
  try {
    const started = await startCheckout(ctx, {
      eventSlug: slug,
      items: lines.map((l) => ({ ticketId: l.item.id, qty: l.qty })),
      payer,
      paymentMethod: "MERCADO_PAGO",
      couponCode,
    }).catch(toQueueOnRefusal(slug, headers));
    headers.append("Set-Cookie", menuCartCookie(slug, []));
    return redirectToCheckout(started, headers);
  } catch (error) {
    if (error instanceof Response) throw error;
    const { result, status } = checkoutFailure(error, submission);
    return data({ result, pickErrors: [] }, { status, headers });
  }
}

export default function MenuPage() {
  const { event, step, sections, lines, money, problems, changedNotice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <main className="mx-auto flex w-full max-w-2xl flex-col gap-5 px-4 py-6 sm:px-6 sm:py-8">
      <header>
        <p className="text-sm font-bold tracking-wide text-[var(--accent)]">MENÚ</p>
        <h1 className="text-2xl font-bold leading-tight sm:text-3xl">{event.name}</h1>
        <p className="mt-1 text-sm text-[var(--muted)]">Pedí y pagá desde el celular; cada consumición llega con su QR y la retirás en la barra.</p>
      </header>
      {changedNotice ? (
        <p role="status" className="rounded-lg border border-amber-500 px-3 py-2 text-sm">
          {changedNotice}
        </p>
      ) : null}
      {step === "pick" ? (
        sections.length ? (
          <Form noValidate method="post" className="flex flex-col gap-5">
            {actionData?.pickErrors?.length ? (
              <ul role="alert" className="rounded-lg border border-red-600 px-3 py-2 text-sm text-red-700 dark:border-red-400 dark:text-red-300">
                {actionData.pickErrors.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            ) : null}
            {sections.map((section) => (
              <section key={section.title} aria-labelledby={`menu-${section.title}`}>
                <h2 id={`menu-${section.title}`} className="mb-2 text-lg font-bold">
                  {section.title}
                </h2>
                <ul className="flex flex-col gap-3">
                  {section.items.map((item) => (
                    <li key={item.id} className="flex gap-3 rounded-xl border border-[var(--border)] bg-[var(--surface)] p-3">
                      {item.imageUrl ? <img src={item.imageUrl} alt="" width={72} height={72} loading="lazy" className="h-18 w-18 shrink-0 rounded-lg object-cover" /> : null}
                      <div className="min-w-0 flex-1">
                        <p className="font-bold">{item.name}</p>
                        {item.description ? <p className="text-sm text-[var(--muted)]">{item.description}</p> : null}
                        <p className="mt-1 font-bold" data-price="">
                          {item.price}
                        </p>
                        {item.withoutNationalTaxesLine ? <p className="text-xs text-[var(--muted)]">{item.withoutNationalTaxesLine}</p> : null}
                      </div>
                      <div className="flex shrink-0 flex-col items-end justify-center">
                        {item.max > 0 ? (
                          <>
                            <label htmlFor={`qty-${item.id}`} className="text-xs text-[var(--muted)]">
                              Cantidad
                            </label>
                            <input
                              id={`qty-${item.id}`}
                              name={`qty.${item.id}`}
                              type="number"
                              inputMode="numeric"
                              min={0}
                              max={item.max}
                              defaultValue={item.qty}
                              aria-label={`Cantidad de ${item.name}`}
                              className="mt-1 w-16 rounded-lg border border-[var(--border)] bg-[var(--bg)] px-2 py-2 text-center"
                            />
                          </>
                        ) : (
                          <span className="text-sm font-bold text-[var(--muted)]">Agotado</span>
                        )}
                      </div>
                    </li>
                  ))}
                </ul>
              </section>
            ))}
            <Button type="submit" name="intent" value="pick" className="min-h-11">
              Continuar
            </Button>
          </Form>
        ) : (
          <p className="rounded-xl border border-dashed border-[var(--border)] px-4 py-8 text-center">Este evento todavía no tiene nada en su menú.</p>
        )
      ) : (
        <>
          <section aria-labelledby="tu-pedido" className="rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4">
            <h2 id="tu-pedido" className="text-lg font-bold">
              Tu compra
            </h2>
            {/* The final price first (docs/prices.md), then what it is made of, as the tickets' payer step. */}
            {money ? (
              <MoneyLines
                subtotal={money.subtotal}
                serviceFee={money.serviceFee}
                serviceFeeLabel={money.serviceFeeLabel}
                total={money.total}
                withoutNationalTaxes={money.withoutNationalTaxes}
                className="mt-2"
              />
            ) : null}
            <OrderLines lines={lines} />
            <OrderProblems problems={problems} />
          </section>
          <MenuPayerForm />
          <Link to={`/menu/${event.slug}`} className={buttonClasses("secondary", "min-h-11")}>
            Cambiar la compra
          </Link>
        </>
      )}
    </main>
  );
}

function MenuPayerForm() {
  const { payer, hold, free } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = usePayerForm({ id: "menu-payer", lastResult: actionData?.result, defaultValue: payer });
  const submitting = useIsSubmitting();
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-5">
      <FormErrors id={form.errorId} errors={form.errors} />
      <PayerInfoFields fields={fields} customFields={[]} holderLabels={[]} sends={MENU_WORDS.the} />
      <p className="text-sm text-[var(--muted)]">
        {free
          ? "Son sin cargo: al confirmar te mandamos los QR por email y quedan en Mis tickets."
          : `Vas a pagar con Mercado Pago. Te reservamos ${MENU_WORDS.the}${hold ? ` ${hold}` : ""}; los QR te llegan por email y quedan en Mis tickets.`}
      </p>
      <div className="flex justify-end">
        <Button type="submit" name="intent" value="pay" pending={submitting} pendingLabel="Reservando…" className="min-h-11">
          Continuar al pago
        </Button>
      </div>
    </Form>
  );
}
