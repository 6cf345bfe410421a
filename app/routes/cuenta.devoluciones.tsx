import { purchaseWords, type PurchaseKind } from "#common/order-words";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { getRefundRequest, listMyRefundableOrders, previewRefund, refundRequestView, requestRefund, type RefundRequestView } from "#server/refunds/refunds";
import { GENERIC_ERROR, isDomainError } from "#server/errors";
import { mailboxLink } from "#app/lib/dev-mailbox.server";
import { LOOKUP_FORM_STATUS } from "#app/lib/domain-errors.server";
import { getRequestContext } from "#app/lib/session.server";
import { formatDateTime } from "#common/dates";
import { formatMoney } from "#common/money";
import { MailboxNotice } from "#app/components/account/MailboxNotice";
import { Notice } from "#app/components/account/Notice";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { Field, FieldFrame, controlAria, fieldInputClasses } from "#app/components/ui/Field";
import { ResultRegion } from "#app/components/ui/ResultRegion";

export const meta: MetaFunction = () => [
  { title: "Botón de arrepentimiento · Tribuna" },
  { name: "description", content: "Pedí la devolución de tus entradas: 10 días corridos desde que las recibiste y hasta 24 horas antes del evento." },
];

/**
 * /cuenta/devoluciones: the "Botón de arrepentimiento" (Disposición 954/2025).
 * No account needed: order code + email. Signed-in buyers also see their
 * orders that can still be withdrawn. Every request is confirmed first: the
 * first submit shows what will be refunded and which tickets stop working,
 * "Confirmar devolución" does it. A second form looks a request up by its
 * management code. Results and errors appear at the top (focused with
 * JavaScript). Plain forms: works without JS.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  const url = new URL(request.url);
  const orders = await listMyRefundableOrders(ctx);
  return data(
    {
      signedInEmail: ctx.actor.kind === "user" ? ctx.actor.email : null,
      prefill: {
        orderCode: url.searchParams.get("codigo") ?? "",
        email: url.searchParams.get("email") ?? (ctx.actor.kind === "user" ? ctx.actor.email : ""),
        code: url.searchParams.get("gestion") ?? "",
      },
      orders: orders.map((o) => ({
        orderCode: o.orderCode,
        email: o.email,
        eventName: o.eventName,
        startsAt: formatDateTime(o.startsAt),
        total: formatMoney(o.total),
        bankTransfer: o.paymentMethod === "BANK_TRANSFER",
        deadline: formatDateTime(o.deadline),
        inWindow: o.inWindow,
      })),
    },
    { headers },
  );
}

type RequestView = Pick<RefundRequestView, "code" | "status" | "automatic" | "method" | "orderCode" | "eventName" | "rejectionReason" | "kind"> & {
  amount: string;
  transferredAt: string | null;
};

type Review = {
  orderCode: string;
  eventName: string;
  startsAt: string;
  amount: string;
  tickets: number;
  kind: PurchaseKind;
  bankTransfer: boolean;
  automatic: boolean;
  deadline: string;
  cbuEnd: string | null;
};

type ActionReply =
  | { intent: "request"; done: { outcome: "refunded" | "pending"; existing: boolean; request: RequestView; mailbox?: string | null } }
  | { intent: "review"; review: Review; values: Record<string, string> }
  | { intent: "lookup"; found: RequestView }
  | { intent: "request" | "lookup"; error: string; fieldErrors: Record<string, string[]>; values: Record<string, string> };

/** The fields each form sends, and the page's words for them (the error summary links to each). */
const REQUEST_FIELDS: Record<string, string> = { orderCode: "Código de compra", email: "Email", reason: "Motivo", cbu: "CBU o CVU" };
const LOOKUP_FIELDS: Record<string, string> = { code: "Código de gestión", email: "Email" };
const LOOKUP_IDS: Record<string, string> = { code: "code", email: "lookup-email" };

function present(view: RefundRequestView): RequestView {
  return {
    code: view.code,
    status: view.status,
    automatic: view.automatic,
    method: view.method,
    orderCode: view.orderCode,
    eventName: view.eventName,
    rejectionReason: view.rejectionReason,
    kind: view.kind,
    amount: formatMoney(view.amount),
    transferredAt: view.transferredAt ? formatDateTime(view.transferredAt) : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const values = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string")) as Record<string, string>;
  // "confirm" is the second step; anything else that asks for a refund ("review", the list's buttons) only shows what would happen.
  const step = values.intent === "lookup" ? "lookup" : values.intent === "confirm" ? "confirm" : "review";
  const intent = step === "lookup" ? "lookup" : "request";
  const { ctx, headers } = await getRequestContext(request);
  const input = { orderCode: values.orderCode ?? "", email: values.email ?? "", reason: values.reason, cbu: values.cbu };
  try {
    if (step === "lookup") {
      const found = await getRefundRequest(ctx, { code: values.code ?? "", email: values.email ?? "" });
      return data<ActionReply>({ intent: "lookup", found: present(found) }, { headers });
    }
    if (step === "review") {
      const answer = await previewRefund(ctx, input);
      if ("open" in answer) {
        const view = await refundRequestView(ctx, answer.open);
        return data<ActionReply>({ intent: "request", done: { outcome: answer.open.status === "refunded" ? "refunded" : "pending", existing: true, request: present(view) } }, { headers });
      }
      const p = answer.preview;
      const cbu = (values.cbu ?? "").replace(/\D/g, "");
      const review: Review = {
        orderCode: p.orderCode,
        eventName: p.eventName,
        startsAt: formatDateTime(p.startsAt),
        amount: formatMoney(p.amount),
        tickets: p.tickets,
        kind: p.kind,
        bankTransfer: p.method === "bank_transfer",
        automatic: p.automatic,
        deadline: formatDateTime(p.deadline),
        cbuEnd: p.method === "bank_transfer" && cbu.length >= 4 ? cbu.slice(-4) : null,
      };
      return data<ActionReply>({ intent: "review", review, values: { orderCode: p.orderCode, email: input.email, reason: values.reason ?? "", cbu: values.cbu ?? "" } }, { headers });
    }
    const result = await requestRefund(ctx, input);
    const view = await refundRequestView(ctx, result.request);
    // A new request emails its code: with no SMTP, say where to read it (decision 114).
    const mailbox = result.existing ? null : mailboxLink(request, { to: input.email.trim() });
    return data<ActionReply>({ intent: "request", done: { outcome: result.outcome, existing: result.existing, request: present(view), mailbox } }, { headers });
  } catch (error) {
    if (!isDomainError(error)) {
      console.error(error);
      return data<ActionReply>({ intent, error: GENERIC_ERROR, fieldErrors: {}, values }, { status: 500, headers });
    }
    return data<ActionReply>({ intent, error: error.message, fieldErrors: error.fieldErrors, values }, { status: LOOKUP_FORM_STATUS[error.code], headers });
  }
}

/** What stops working the moment a refund inside the window is confirmed, said for one or several. */
const VOIDED_FROM_NOW: Record<PurchaseKind, { one: string; many: string }> = {
  ticket: { one: "ya no va a servir para entrar", many: "ya no van a servir para entrar" },
  menu: { one: "ya no se va a poder retirar en la barra", many: "ya no se van a poder retirar en la barra" },
  mixed: { one: "ya no va a servir ni en la puerta ni en la barra", many: "ya no van a servir ni en la puerta ni en la barra" },
};

/** The first step: what confirming does, and the button that does it (the values travel in hidden fields). */
function ReviewPanel({ review, values, busy }: { review: Review; values: Record<string, string>; busy: boolean }) {
  const one = review.tickets === 1;
  // A drink order speaks of consumiciones and the bar, not of entradas (docs/wording.md, "Consumiciones").
  const words = purchaseWords(review.kind);
  const tickets = words.count(review.tickets);
  const stopsWorking = VOIDED_FROM_NOW[review.kind][one ? "one" : "many"];
  return (
    <section aria-labelledby="revision" className="rounded-2xl border border-primary-500 bg-[var(--surface)] p-6">
      <h2 id="revision" className="text-xl font-bold">
        Revisá antes de confirmar
      </h2>
      <p className="mt-2 text-sm text-[var(--muted)]">
        Compra {review.orderCode} · {review.eventName} · {review.startsAt}
      </p>
      <ul className="mt-4 list-disc space-y-2 pl-5">
        {review.automatic ? (
          <>
            <li>
              Te devolvemos <strong>{review.amount}</strong>, todo lo que pagaste, cargo por servicio incluido,{" "}
              {review.bankTransfer ? `por transferencia a tu CBU/CVU${review.cbuEnd ? ` terminado en ${review.cbuEnd}` : ""}` : "por el mismo medio con el que pagaste"}.
            </li>
            <li>
              <strong>
                {one ? "Se anula" : "Se anulan"} {tickets}
              </strong>{" "}
              en el momento: {stopsWorking}, y no se puede deshacer.
            </li>
          </>
        ) : (
          <>
            <li>
              Tu compra está fuera del plazo legal de arrepentimiento: le pedimos a la organización del evento que te devuelva <strong>{review.amount}</strong> y
              decide ella.
            </li>
            <li>
              Mientras tanto {one ? `tu ${words.one} sigue valiendo` : `tus ${tickets} siguen valiendo`}. Si la organización aprueba la devolución, {one ? "se anula" : "se anulan"}.
            </li>
          </>
        )}
      </ul>
      <Form method="post" className="mt-6 flex flex-wrap items-center gap-3">
        <input type="hidden" name="intent" value="confirm" />
        {Object.entries(values).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Button type="submit" variant="danger" pending={busy} pendingLabel="Procesando…">
          Confirmar devolución
        </Button>
        <Link to="/cuenta/devoluciones" className={buttonClasses("ghost")}>
          No, volver
        </Link>
      </Form>
    </section>
  );
}

/** Errors of a submit, at the top: the message and a link to each field that has one. */
function ErrorSummary({ error, fieldErrors, labels, ids = {} }: { error: string; fieldErrors: Record<string, string[]>; labels: Record<string, string>; ids?: Record<string, string> }) {
  const fields = Object.entries(fieldErrors).filter(([name, list]) => labels[name] && list?.length);
  return (
    <Notice tone="error">
      <p className="font-bold">{error}</p>
      {fields.length ? (
        <ul className="mt-2 list-disc pl-5">
          {fields.map(([name, list]) => (
            <li key={name}>
              <a href={`#${ids[name] ?? name}`} className="underline">
                {labels[name]}: {list[0]}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </Notice>
  );
}

function RequestSummary({ request, outcome, existing, mailbox }: { request: RequestView; outcome?: "refunded" | "pending"; existing?: boolean; mailbox?: string | null }) {
  const state = outcome ?? (request.status === "refunded" ? "refunded" : request.status === "rejected" ? "rejected" : "pending");
  return (
    <section aria-labelledby="resultado" className="rounded-2xl border border-primary-500 bg-[var(--surface)] p-6">
      <h2 id="resultado" className="text-xl font-bold">
        {existing ? "Ya habías pedido esta devolución" : outcome ? "Recibimos tu solicitud" : "Estado de tu devolución"}
      </h2>
      <p className="mt-3">Tu código de gestión es</p>
      <p className="mt-1 text-3xl font-bold tracking-widest" data-testid="codigo-gestion">
        {request.code}
      </p>
      <p className="mt-1 text-sm text-[var(--muted)]">
        Compra {request.orderCode} · {request.eventName} · {request.amount}
      </p>
      <div className="mt-4 space-y-2">
        {state === "refunded" ? (
          <>
            <p className="font-bold">Devolución aprobada{request.automatic ? " en el momento: la pediste dentro del plazo legal" : " por la organización"}.</p>
            <p>
              {purchaseWords(request.kind).yours} quedaron anuladas y {purchaseWords(request.kind).voidedUse}.
            </p>
            {request.method === "bank_transfer" ? (
              <p>
                {request.transferredAt
                  ? `La organización transfirió el dinero a tu CBU/CVU el ${request.transferredAt}.`
                  : "La organización te va a transferir el dinero al CBU/CVU que nos diste. Te avisamos por email cuando esté hecho."}
              </p>
            ) : (
              <p>Te devolvemos el dinero por el mismo medio con el que pagaste. Según tu banco o tarjeta puede tardar unos días en verse.</p>
            )}
          </>
        ) : state === "rejected" ? (
          <>
            <p className="font-bold">La organización rechazó la devolución.</p>
            {request.rejectionReason ? <p>Motivo: {request.rejectionReason}</p> : null}
            <p>{purchaseWords(request.kind).yours} siguen valiendo.</p>
          </>
        ) : (
          <>
            <p className="font-bold">Lo revisa la organización del evento.</p>
            <p>Tu solicitud está fuera del plazo legal de arrepentimiento, así que decide la organización. Te escribimos apenas lo haga; mientras tanto {purchaseWords(request.kind).yours.toLowerCase()} siguen valiendo.</p>
          </>
        )}
        <p className="text-sm text-[var(--muted)]">Guardá el código: con él y tu email podés consultar el estado acá mismo.</p>
        <MailboxNotice href={mailbox} className="text-sm" />
      </div>
    </section>
  );
}

export default function RefundsPage() {
  const { prefill, orders, signedInEmail } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as ActionReply | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const requestError = reply && "error" in reply && reply.intent === "request" ? reply : null;
  const lookupError = reply && "error" in reply && reply.intent === "lookup" ? reply : null;
  const v = (name: string, fallback = "") => requestError?.values[name] ?? fallback;
  const fe = (name: string) => requestError?.fieldErrors[name] ?? null;

  return (
    <main className="mx-auto w-full max-w-3xl px-4 py-10">
      <header className="mb-8">
        <h1 className="text-3xl font-bold sm:text-4xl">Botón de arrepentimiento</h1>
        {/* The answer to the last submit comes first: without JavaScript the new page is read from the top. */}
        <ResultRegion reply={reply} label="Resultado" className="mt-6">
          {reply && "done" in reply ? <RequestSummary request={reply.done.request} outcome={reply.done.outcome} existing={reply.done.existing} mailbox={reply.done.mailbox} /> : null}
          {reply && "found" in reply ? <RequestSummary request={reply.found} /> : null}
          {reply && "review" in reply ? <ReviewPanel review={reply.review} values={reply.values} busy={busy} /> : null}
          {requestError ? <ErrorSummary error={requestError.error} fieldErrors={requestError.fieldErrors} labels={REQUEST_FIELDS} /> : null}
          {lookupError ? <ErrorSummary error={lookupError.error} fieldErrors={lookupError.fieldErrors} labels={LOOKUP_FIELDS} ids={LOOKUP_IDS} /> : null}
        </ResultRegion>
        <div className="mt-4 space-y-2 text-[var(--muted)]">
          <p>
            Por la Disposición 954/2025 podés arrepentirte de tu compra y pedir que te devolvamos todo lo que pagaste, cargo por servicio incluido,
            dentro de los <strong className="text-[var(--text)]">10 días corridos desde que recibiste las entradas</strong> y hasta{" "}
            <strong className="text-[var(--text)]">24 horas antes del evento</strong>.
          </p>
          <p>
            Dentro de ese plazo la devolución es automática: te damos un código de gestión en el momento y tus entradas quedan anuladas. Fuera del
            plazo, tu solicitud la revisa la organización del evento. No necesitás cuenta: alcanza con el código de compra (TRB-…) y el email con el
            que pagaste.
          </p>
        </div>
      </header>


      {orders.length ? (
        <section aria-labelledby="mis-compras" className="mb-8 rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-6">
          <h2 id="mis-compras" className="text-xl font-bold">
            Tus compras
          </h2>
          <ul className="mt-4 divide-y divide-[var(--border)]">
            {orders.map((o) => (
              <li key={o.orderCode} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div>
                  <p className="font-bold">{o.eventName}</p>
                  <p className="text-sm text-[var(--muted)]">
                    {o.orderCode} · {o.startsAt} · {o.total}
                  </p>
                  <p className="text-sm text-[var(--muted)]">
                    {o.inWindow ? `Devolución automática hasta el ${o.deadline}.` : "Fuera del plazo legal: lo decide la organización."}
                  </p>
                </div>
                {o.bankTransfer ? (
                  <Link className="text-[var(--accent)] underline" to={`?codigo=${encodeURIComponent(o.orderCode)}&email=${encodeURIComponent(o.email)}#pedir`}>
                    Pedir devolución (necesitamos tu CBU/CVU)
                  </Link>
                ) : (
                  <Form method="post">
                    <input type="hidden" name="intent" value="review" />
                    <input type="hidden" name="orderCode" value={o.orderCode} />
                    <input type="hidden" name="email" value={o.email} />
                    <Button type="submit" variant="secondary" pending={busy}>
                      Pedir devolución de {o.orderCode}
                    </Button>
                  </Form>
                )}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section id="pedir" aria-labelledby="pedir-titulo" className="mb-8 rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-6">
        <h2 id="pedir-titulo" className="text-xl font-bold">
          Pedir la devolución
        </h2>
        <Form method="post" className="mt-4 flex flex-col gap-2" noValidate>
          <input type="hidden" name="intent" value="review" />
          <Field
            label="Código de compra"
            help="Está en el email de tus entradas y en cada entrada (empieza con TRB-)."
            errors={fe("orderCode")}
            inputProps={{ id: "orderCode", name: "orderCode", defaultValue: v("orderCode", prefill.orderCode), required: true, autoComplete: "off", placeholder: "TRB-XXXXXX" }}
          />
          <Field
            label="Email"
            help="El que usaste al pagar."
            errors={fe("email")}
            inputProps={{ id: "email", name: "email", type: "email", defaultValue: v("email", prefill.email), required: true, autoComplete: "email" }}
          />
          <FieldFrame id="reason" label="Motivo (opcional)" errors={fe("reason")}>
            <textarea id="reason" name="reason" rows={3} maxLength={500} defaultValue={v("reason")} className={fieldInputClasses} {...controlAria("reason", undefined, fe("reason"))} />
          </FieldFrame>
          <Field
            label="CBU o CVU (solo si pagaste por transferencia bancaria)"
            help="Si pagaste por transferencia, te devolvemos el dinero a esta cuenta: 22 números, a tu nombre. Si pagaste con Mercado Pago, dejalo vacío."
            errors={fe("cbu")}
            inputProps={{ id: "cbu", name: "cbu", inputMode: "numeric", defaultValue: v("cbu"), autoComplete: "off" }}
          />
          <Button type="submit" pending={busy} pendingLabel="Enviando…">
            Pedir devolución
          </Button>
          {signedInEmail ? null : (
            <p className="text-sm text-[var(--muted)]">
              ¿Tenés cuenta? <Link to="/cuenta/iniciar-sesion" className="text-[var(--accent)] underline">Ingresá</Link> y elegí la compra de la lista.
            </p>
          )}
        </Form>
      </section>

      <section aria-labelledby="consultar" className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-6">
        <h2 id="consultar" className="text-xl font-bold">
          Consultar una devolución
        </h2>
        <Form method="post" className="mt-4 flex flex-col gap-2" noValidate>
          <input type="hidden" name="intent" value="lookup" />
          <Field
            label="Código de gestión"
            errors={lookupError?.fieldErrors.code ?? null}
            inputProps={{ id: "code", name: "code", defaultValue: lookupError?.values.code ?? prefill.code, required: true, autoComplete: "off", placeholder: "DEV-XXXXXX" }}
          />
          <Field
            label="Email"
            errors={lookupError?.fieldErrors.email ?? null}
            inputProps={{ id: "lookup-email", name: "email", type: "email", defaultValue: lookupError?.values.email ?? prefill.email, required: true, autoComplete: "email" }}
          />
          <Button type="submit" variant="secondary" pending={busy}>
            Consultar
          </Button>
        </Form>
      </section>
    </main>
  );
}
