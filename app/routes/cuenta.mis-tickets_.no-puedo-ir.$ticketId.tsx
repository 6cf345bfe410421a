import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { formatMoney, parseMoney } from "#common/money";
import { withFlash } from "#app/lib/flash.server";
import { domainErrorReply, invalidReply } from "#app/lib/forms.server";
import { requireUser } from "#app/lib/session.server";
import { SAVE_ERROR } from "#server/errors";
import { cancelResaleListing, getResalableTicket, listForResale } from "#server/resale/listings";
import { listMyRefundableOrders } from "#server/refunds/refunds";
import { AccountPage } from "#app/components/account/AccountPage";
import { FormErrors } from "#app/components/account/Notice";
import { useAccountForm, useIsSubmitting } from "#app/components/account/useAccountForm";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { Field } from "#app/components/ui/Field";
import { FormSnackbar, type SnackbarMessage } from "#app/components/ui/FormSnackbar";
import { ResaleExplainer } from "#app/components/resale/ResaleExplainer";

export const meta: MetaFunction = () => [{ title: "No puedo ir · Tribuna" }, { name: "robots", content: "noindex" }];

const PRICE_MESSAGE = "Escribí el precio en pesos, por ejemplo 15.000.";
const listFormSchema = z.object({
  intent: z.literal("list"),
  price: z.string({ error: PRICE_MESSAGE }).refine((v) => (parseMoney(v) ?? 0) > 0, PRICE_MESSAGE),
});

/**
 * `/cuenta/mis-tickets/no-puedo-ir/{ticketId}`: what someone who cannot go
 * can do, in this order (docs/resale.md): the legal withdrawal while it
 * applies (today's flow, /cuenta/devoluciones), otherwise the official
 * resale at face value; and cancelling a listing until it is sold. Plain
 * forms: works without JavaScript.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  headers.set("Cache-Control", "private, no-cache");
  try {
    const found = await getResalableTicket(ctx, params.ticketId ?? "");
    const refundable = (await listMyRefundableOrders(ctx)).find((o) => o.orderId === found.order.id && o.inWindow);
    const { terms, listing } = found;
    return data(
      {
        eventName: found.event.name,
        eventSlug: found.event.slug,
        ticketTypeName: found.ticketTypeName,
        orderCode: found.order.code,
        withdrawal: refundable && !listing ? { deadline: refundable.deadline.toISOString() } : null,
        refusal: found.refusal,
        faceValue: formatMoney(terms.faceValue),
        maxPrice: formatMoney(terms.maxPrice),
        maxPriceInput: String(terms.maxPrice / 100).replace(".", ","),
        feePercent: terms.feeBps / 100,
        payoutMethod: found.payoutMethod,
        listing: listing ? { id: listing.id, status: listing.status, waitlist: listing.status === "held" && !listing.heldByOrderId, price: formatMoney(listing.price), fee: formatMoney(listing.fee), payout: formatMoney(listing.payout) } : null,
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
  const saveError: SnackbarMessage = { type: "error", message: SAVE_ERROR };
  if (form.get("intent") === "cancel") {
    const submission = parseWithZod(form, { schema: z.object({ intent: z.literal("cancel"), listingId: z.string() }) });
    if (submission.status !== "success") return data({ result: invalidReply(submission).result, snackbar: saveError }, { status: 400, headers });
    try {
      await cancelResaleListing(ctx, { listingId: submission.value.listingId });
      return redirect("/cuenta/mis-tickets", { headers: withFlash(headers, { type: "success", message: "Cancelaste la publicación: tu entrada y tu QR siguen siendo tuyos." }) });
    } catch (error) {
      const reply = domainErrorReply(submission, error);
      return data({ result: reply.result, snackbar: { type: "error", message: reply.result.error?.[""]?.[0] ?? SAVE_ERROR } as SnackbarMessage }, { status: reply.status, headers });
    }
  }
  const submission = parseWithZod(form, { schema: listFormSchema });
  if (submission.status !== "success") {
    const reply = invalidReply(submission);
    return data({ result: reply.result, snackbar: saveError }, { status: reply.status, headers });
  }
  try {
    await listForResale(ctx, { ticketId: params.ticketId ?? "", price: parseMoney(submission.value.price)! });
    return redirect("/cuenta/mis-tickets", {
      headers: withFlash(headers, { type: "success", message: "Publicaste tu entrada en la reventa oficial. Te avisamos por email cuando se venda; hasta entonces tu QR sigue sirviendo." }),
    });
  } catch (error) {
    const reply = domainErrorReply(submission, error, { fields: ["price"] });
    const message = reply.result.error?.price?.[0] ?? reply.result.error?.[""]?.[0] ?? SAVE_ERROR;
    return data({ result: reply.result, snackbar: { type: "error", message } as SnackbarMessage }, { status: reply.status, headers });
  }
}

export default function CannotGoPage() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useAccountForm(listFormSchema, { id: "revender-entrada", lastResult: actionData?.result, defaultValue: { intent: "list", price: page.maxPriceInput } });
  const submitting = useIsSubmitting();
  return (
    <AccountPage title="No puedo ir" description={`${page.eventName} · ${page.ticketTypeName} · Compra ${page.orderCode}`}>
      {page.withdrawal ? (
        <section aria-labelledby="arrepentimiento" className="mb-6">
          <h2 id="arrepentimiento" className="text-lg font-bold">
            Botón de arrepentimiento
          </h2>
          <p className="mt-1 text-sm">
            Todavía estás en plazo para arrepentirte de la compra (hasta el {new Date(page.withdrawal.deadline).toLocaleDateString("es-AR", { timeZone: "America/Argentina/Buenos_Aires" })}): te devolvemos todo lo que pagaste, cargo por servicio incluido, y las entradas de esa compra dejan de servir.
          </p>
          <Link to="/cuenta/devoluciones" className={`${buttonClasses("primary")} mt-3`}>
            Arrepentirme de la compra
          </Link>
        </section>
      ) : null}
      {page.listing ? (
        <section aria-labelledby="publicada">
          <h2 id="publicada" className="text-lg font-bold">
            {page.listing.status === "sold" ? "Vendiste esta entrada" : "Tu entrada está en la reventa oficial"}
          </h2>
          <p className="mt-1 text-sm">
            Precio {page.listing.price}. Cuando se venda te devolvemos {page.listing.payout}
            {page.listing.fee !== formatMoney(0) ? ` (el organizador se queda ${page.listing.fee} de cargo por reventa)` : ""}.
          </p>
          {page.listing.status === "active" ? (
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="cancel" />
              <input type="hidden" name="listingId" value={page.listing.id} />
              <p className="mb-2 text-sm">Si cancelás, la entrada sale de la reventa y tu QR sigue sirviendo como siempre.</p>
              <Button type="submit" variant="secondary">
                Cancelar la publicación
              </Button>
            </Form>
          ) : page.listing.waitlist ? (
            <p className="mt-2 text-sm">
              Se la ofrecimos a la primera persona de la lista de espera del evento: ya no se puede cancelar. Si no la reclama a tiempo, pasa a la siguiente persona o vuelve a la reventa.
            </p>
          ) : page.listing.status === "held" ? (
            <p className="mt-2 text-sm">Alguien la está pagando en este momento: ya no se puede cancelar. Si no la paga, vuelve a la reventa.</p>
          ) : null}
        </section>
      ) : page.withdrawal ? null : page.refusal ? (
        <p className="text-sm">{page.refusal}</p>
      ) : (
        <section aria-labelledby="revender">
          <h2 id="revender" className="text-lg font-bold">
            Revender al precio que pagaste
          </h2>
          <ResaleExplainer faceValue={page.faceValue} maxPrice={page.maxPrice} feePercent={page.feePercent} payoutMethod={page.payoutMethod} />
          <Form method="post" {...getFormProps(form)} className="mt-3 flex flex-col gap-2">
            <input type="hidden" name="intent" value="list" />
            <FormErrors id={form.errorId} errors={form.errors} />
            <Field
              label="Precio en pesos"
              help={`Hasta ${page.maxPrice}.`}
              inputProps={{ ...getInputProps(fields.price, { type: "text" }), inputMode: "decimal", autoComplete: "off" }}
              errors={fields.price.errors}
            />
            <div className="mt-2 flex flex-wrap justify-end gap-2">
              <Link to="/cuenta/mis-tickets" className={buttonClasses("secondary")}>
                Volver
              </Link>
              <Button type="submit" pending={submitting} pendingLabel="Publicando…">
                Publicar en la reventa oficial
              </Button>
            </div>
          </Form>
        </section>
      )}
      <FormSnackbar snackbar={actionData?.snackbar} />
    </AccountPage>
  );
}
