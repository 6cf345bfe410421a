import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { holdDuration } from "#common/pricing";
import { errorMessages, FORM_STATUS, isFormError, pageErrorResponse } from "#app/lib/domain-errors.server";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formatCbu } from "#common/cbu";
import { formatCuit } from "#common/cuit";
import { formatDateTime } from "#common/dates";
import { formatMoney } from "#common/money";
import { withFlash } from "#app/lib/flash.server";
import { readReceiptForm } from "#app/lib/receipt-upload.server";
import { getRequestContext } from "#app/lib/session.server";
import { CopyButton } from "#app/components/bank-transfers/CopyButton";
import { Button } from "#app/components/ui/Button";
import { FileInput } from "#app/components/ui/FileInput";
import { BANK_TRANSFER_MESSAGES, getBankTransferPage, uploadBankTransferReceipt } from "#server/bank-transfers/bank-transfers";
import { MAX_RECEIPT_BYTES } from "#server/bank-transfers/receipts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Transferí para tu compra ${data.order.code} · Tribuna` : "Tu compra · Tribuna" },
  { name: "robots", content: "noindex" },
];


/** What the buyer may not read is simply not there (no hint that the billing exists). */
async function pageOr404(request: Request, billingId: string) {
  const { ctx, headers } = await getRequestContext(request);
  const token = new URL(request.url).searchParams.get("t");
  try {
    return { ctx, headers, token, page: await getBankTransferPage(ctx, billingId, { token }) };
  } catch (error) {
    throw pageErrorResponse(error, { conceal: true, notFoundText: "No encontramos tu compra." });
  }
}

/**
 * `/checkout/bank-transfer/{billingId}?t=…`: how much to transfer and where
 * (the organizer's CBU/CVU, alias, holder, CUIT, bank), the order code for
 * the transfer's reference, until when the tickets are held (48 h) and the
 * receipt upload. An approved transfer goes to the tickets, with the token
 * only if the request brought it and it is still needed (a signed-in buyer or
 * member reads them by their session).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const billingId = params.billingId ?? "";
  const { headers, page } = await pageOr404(request, billingId);
  headers.set("Cache-Control", "private, no-store");
  if (page.status === "approved") throw redirect(page.ticketsPath, { headers });
  const { order, account, receipt, review } = page;
  return data(
    {
      status: page.status,
      order: {
        code: order.code,
        total: formatMoney(order.total),
        items: order.items.map((i) => ({ id: i.id, name: i.name, qty: i.qty })),
        holdExpiresAt: order.holdExpiresAt ? formatDateTime(order.holdExpiresAt) : null,
      },
      event: page.event ? { name: page.event.name, href: `/eventos/${page.event.slug}` } : null,
      organizationName: page.organizationName,
      account: account
        ? {
            kind: account.isCvu ? "CVU" : "CBU",
            cbu: account.cbu,
            cbuLabel: formatCbu(account.cbu),
            alias: account.alias,
            holderName: account.holderName,
            holderCuit: formatCuit(account.holderCuit),
            bankName: account.bankName,
          }
        : null,
      receipt: receipt && page.receiptPath ? { href: page.receiptPath, name: receipt.originalName, uploadedAt: formatDateTime(receipt.createdAt) } : null,
      rejectionReason: review?.decision === "rejected" ? (review.reason ?? "") : null,
      maxMb: MAX_RECEIPT_BYTES / 1024 / 1024,
    },
    { headers },
  );
}

/** The receipt upload (multipart): checked by size and first bytes; back to this page with the confirmation. */
export async function action({ request, params }: ActionFunctionArgs) {
  const billingId = params.billingId ?? "";
  const { ctx, headers, token } = await pageOr404(request, billingId);
  const { file } = await readReceiptForm(request);
  try {
    await uploadBankTransferReceipt(ctx, { billingId, token, bytes: file?.bytes, fileName: file?.name });
  } catch (error) {
    if (!isFormError(error)) throw error;
    return data({ errors: errorMessages(error) }, { status: FORM_STATUS[error.code], headers });
  }
  const url = new URL(request.url);
  return redirect(`${url.pathname}${url.search}`, { headers: withFlash(headers, { type: "success", message: BANK_TRANSFER_MESSAGES.uploaded }) });
}

function Row({ label, value, copy }: { label: string; value: string; copy?: string }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 py-2">
      <dt className="text-sm text-[var(--muted)]">{label}</dt>
      <dd className="flex items-center gap-2">
        <span className="select-all break-all font-mono font-bold" data-field={label}>
          {value}
        </span>
        {copy ? <CopyButton value={copy} label={label} /> : null}
      </dd>
    </div>
  );
}

export default function BankTransferPage() {
  const { status, order, event, organizationName, account, receipt, rejectionReason, maxMb } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const eventHref = event?.href ?? "/";
  return (
    <main className="mx-auto flex w-full max-w-2xl flex-col gap-5 px-4 py-6 sm:px-6 sm:py-8">
      <header>
        <p className="text-sm font-bold tracking-wide text-[var(--accent)]">PAGO POR TRANSFERENCIA</p>
        <h1 className="text-2xl font-bold leading-tight sm:text-3xl">{event?.name ?? "Tu compra"}</h1>
        <p className="mt-1 text-sm">
          Código de compra: <strong data-order-code="">{order.code}</strong>
        </p>
        <ul className="mt-2 text-sm text-[var(--muted)]">
          {order.items.map((item) => (
            <li key={item.id}>
              {item.qty} × {item.name}
            </li>
          ))}
        </ul>
      </header>

      {status === "rejected" ? (
        <section role="status" className="rounded-xl border border-red-500/60 px-4 py-3">
          <h2 className="font-bold">El organizador no encontró tu transferencia</h2>
          <p className="mt-1 text-sm">La compra quedó cancelada y las entradas volvieron a la venta.</p>
          {rejectionReason ? <p className="mt-1 text-sm">Motivo: {rejectionReason}</p> : null}
          <p className="mt-2 text-sm">
            <Link to={eventHref} className="font-bold underline">
              Volver al evento
            </Link>
          </p>
        </section>
      ) : null}
      {status === "expired" ? (
        <section role="status" className="rounded-xl border border-[var(--border)] px-4 py-3">
          <h2 className="font-bold">Tu reserva venció</h2>
          <p className="mt-1 text-sm">Pasaron las {holdDuration("BANK_TRANSFER")} y las entradas volvieron a la venta. Si ya transferiste, escribile al organizador con el comprobante.</p>
          <p className="mt-2 text-sm">
            <Link to={eventHref} className="font-bold underline">
              Volver al evento
            </Link>
          </p>
        </section>
      ) : null}
      {status === "closed" ? (
        <p role="status" className="rounded-lg border border-[var(--border)] px-4 py-3 text-sm">
          Esta compra ya no se puede pagar.
        </p>
      ) : null}

      {status === "pending" ? (
        <>
          <section aria-labelledby="transferi" className="rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4">
            <h2 id="transferi" className="text-lg font-bold">
              Transferí <span data-testid="transfer-amount">{order.total}</span>
            </h2>
            {order.holdExpiresAt ? (
              <p className="mt-1 text-sm">
                Guardamos tus entradas hasta las <strong data-testid="hold-deadline">{order.holdExpiresAt}</strong>. Transferí y subí el comprobante antes de
                esa hora; el organizador lo revisa y, cuando lo apruebe, te mandamos las entradas por email.
              </p>
            ) : null}
            {account ? (
              <dl className="mt-3 divide-y divide-[var(--border)]" data-testid="transfer-account">
                <Row label="Monto" value={order.total} />
                <Row label={account.kind} value={account.cbuLabel} copy={account.cbu} />
                {account.alias ? <Row label="Alias" value={account.alias} copy={account.alias} /> : null}
                <Row label="Titular" value={account.holderName} copy={account.holderName} />
                <Row label="CUIT" value={account.holderCuit} copy={account.holderCuit.replace(/-/g, "")} />
                <Row label="Banco" value={account.bankName} />
                <Row label="Referencia" value={order.code} copy={order.code} />
              </dl>
            ) : (
              <p className="mt-3 rounded-lg border border-[var(--border)] px-3 py-2 text-sm" role="alert">
                {organizationName || "El organizador"} todavía no cargó la cuenta donde recibir la transferencia. No transfieras todavía: escribile al
                organizador o probá de nuevo más tarde.
              </p>
            )}
            {account ? <p className="mt-2 text-xs text-[var(--muted)]">Poné el código de compra {order.code} en el concepto o la referencia de la transferencia.</p> : null}
          </section>

          <section aria-labelledby="comprobante" className="rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4">
            <h2 id="comprobante" className="text-lg font-bold">
              Comprobante
            </h2>
            {receipt ? (
              <p className="mt-2 text-sm" role="status" data-testid="receipt-received">
                Recibimos tu comprobante. El organizador lo revisa y te avisamos por email.{" "}
                <a href={receipt.href} className="underline" target="_blank" rel="noreferrer">
                  Ver comprobante ({receipt.name}, {receipt.uploadedAt})
                </a>
              </p>
            ) : (
              <p className="mt-2 text-sm">Cuando hayas transferido, subí el comprobante (PDF, JPG o PNG de hasta {maxMb} MB).</p>
            )}
            {/* noValidate: a missing file is answered by the server in Spanish, never by the browser's own bubble. */}
            <Form method="post" encType="multipart/form-data" className="mt-3 flex flex-col gap-3" noValidate>
              <div className="flex flex-col gap-1 text-sm">
                <span id="receipt-label" className="font-medium">
                  {receipt ? "Reemplazar el comprobante" : "Archivo del comprobante"}
                </span>
                <FileInput
                  id="receipt"
                  name="receipt"
                  required
                  accept="application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png"
                  aria-labelledby="receipt-label"
                  aria-invalid={actionData?.errors ? true : undefined}
                  aria-describedby={actionData?.errors ? "receipt-error" : undefined}
                />
              </div>
              {actionData?.errors ? (
                <p id="receipt-error" role="alert" className="text-sm text-red-700 dark:text-red-300">
                  {actionData.errors.join(" ")}
                </p>
              ) : null}
              <div>
                <Button type="submit" pending={sending} pendingLabel="Subiendo…">
                  {receipt ? "Subir otro comprobante" : "Subir comprobante"}
                </Button>
              </div>
            </Form>
          </section>
        </>
      ) : null}
    </main>
  );
}
