import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { purchaseWords } from "#common/order-words";
import { DOCUMENT_TYPES, documentTypeSchema, emailSchema, identificationNumberSchema, nameSchema } from "#common/validation";
import { mailboxLink } from "#app/lib/dev-mailbox.server";
import { withFlash } from "#app/lib/flash.server";
import { domainErrorReply, invalidReply } from "#app/lib/forms.server";
import { requireUser } from "#app/lib/session.server";
import { SAVE_ERROR } from "#server/errors";
import { getTransferableTicket, transferTicket } from "#server/tickets/transfer";
import { whenLabel } from "#server/tickets/tickets";
import { ticketsEmailAddOns } from "#server/wallet/tickets-email";
import { AccountPage } from "#app/components/account/AccountPage";
import { FormErrors } from "#app/components/account/Notice";
import { useAccountForm, useIsSubmitting } from "#app/components/account/useAccountForm";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { Field } from "#app/components/ui/Field";
import { SelectField } from "#app/components/ui/Select";
import { FormSnackbar, type SnackbarMessage } from "#app/components/ui/FormSnackbar";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Enviar ${data?.ticket.one ?? "entrada"} · Tribuna` },
  { name: "robots", content: "noindex" },
];

/** The same rules as transferTicket's (common/validation.ts); a named ticket (decision 202) also asks the new holder's document. */
const transferFormSchema = (named: boolean) =>
  named
    ? z.object({ firstName: nameSchema, lastName: nameSchema, email: emailSchema, documentType: documentTypeSchema, documentNumber: identificationNumberSchema })
    : z.object({ firstName: nameSchema, lastName: nameSchema, email: emailSchema, documentType: z.undefined().optional(), documentNumber: z.undefined().optional() });

async function ticketOr404(ctx: Parameters<typeof getTransferableTicket>[0], ticketId: string, headers: Headers) {
  try {
    const ticket = await getTransferableTicket(ctx, ticketId);
    // A drink is a consumición (docs/wording.md, "Consumiciones").
    const one = purchaseWords(ticket.kind).one;
    return { eventName: ticket.event.name, when: whenLabel(ticket.event), ticketTypeName: ticket.ticketTypeName, seat: ticket.seat?.label ?? null, holderName: ticket.holderName, orderCode: ticket.orderCode, one, named: ticket.named };
  } catch (error) {
    throw pageErrorResponse(error, { headers });
  }
}

/** `/cuenta/mis-tickets/enviar/{ticketId}`: send one of my tickets to another person (a plain form, works without JavaScript). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  headers.set("Cache-Control", "private, no-cache");
  return data({ ticket: await ticketOr404(ctx, params.ticketId ?? "", headers) }, { headers });
}

/** `transferTicket`: back to "Mis tickets" with "Le enviamos la entrada (o la consumición) a …"; errors next to their fields. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  // Whether the form asks the document; a ticket that cannot be sent is answered by transferTicket below, as a form error.
  const ticket = { named: await getTransferableTicket(ctx, params.ticketId ?? "").then((t) => t.named, () => false) };
  const submission = parseWithZod(await request.formData(), { schema: transferFormSchema(ticket.named) });
  const saveError: SnackbarMessage = { type: "error", message: SAVE_ERROR };
  if (submission.status !== "success") {
    const reply = invalidReply(submission);
    return data({ result: reply.result, snackbar: saveError }, { status: reply.status, headers });
  }
  try {
    // The email says from when a live-QR event's static QR counts, as the purchase's does (docs/wallet.md).
    const result = await transferTicket(ctx, { ticketId: params.ticketId ?? "", ...submission.value }, ticketsEmailAddOns);
    // No SMTP: the email stays in the mailbox; say where (only to someone who may open it). The snackbar is text, so the path is written out.
    const mailbox = mailboxLink(request, { to: result.toEmail }) ? " Como no hay un servidor de correo configurado, el correo no sale de esta computadora: lo podés leer en /dev/correos." : "";
    return redirect("/cuenta/mis-tickets", { headers: withFlash(headers, { type: "success", message: `Le enviamos la ${purchaseWords(result.ticket.kind).one} a ${result.toName} (${result.toEmail}).${mailbox}` }) });
  } catch (error) {
    const reply = domainErrorReply(submission, error, { fields: ["firstName", "lastName", "email", ...(ticket.named ? ["documentType", "documentNumber"] : [])] });
    const message = reply.result.error?.[""]?.[0] ?? SAVE_ERROR;
    return data({ result: reply.result, snackbar: { type: "error", message } as SnackbarMessage }, { status: reply.status, headers });
  }
}

export default function TransferTicketPage() {
  const { ticket } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useAccountForm(transferFormSchema(ticket.named), { id: "enviar-entrada", lastResult: actionData?.result, defaultValue: ticket.named ? { documentType: "dni" } : undefined });
  const submitting = useIsSubmitting();
  return (
    <AccountPage title="Enviar a otra persona" description={`${ticket.eventName} · ${ticket.when} · ${ticket.ticketTypeName}${ticket.seat ? ` · ${ticket.seat}` : ""} · Compra ${ticket.orderCode}`}>
      <p className="mb-4 text-sm">
        La {ticket.one} pasa a ser de la persona que elijas: le mandamos el QR por email y el tuyo deja de servir. No se puede deshacer.
      </p>
      {ticket.named ? (
        <p className="mb-4 text-sm">
          Las entradas de este evento son nominativas: la entrada sale a nombre de esta persona, con su documento, y en la puerta se lo piden. Escribí los datos tal como figuran en su documento.
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field label="Nombre" inputProps={{ ...getInputProps(fields.firstName, { type: "text" }), autoComplete: "off" }} errors={fields.firstName.errors} />
        <Field label="Apellido" inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), autoComplete: "off" }} errors={fields.lastName.errors} />
        <Field label="Email" inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off" }} errors={fields.email.errors} />
        {ticket.named ? (
          <>
            <SelectField label="Tipo de documento" selectProps={getSelectProps(fields.documentType)} options={DOCUMENT_TYPES} errors={fields.documentType.errors} />
            <Field
              label="Número de documento"
              inputProps={{ ...getInputProps(fields.documentNumber, { type: "text" }), autoComplete: "off", inputMode: "text" }}
              errors={fields.documentNumber.errors}
            />
          </>
        ) : null}
        <div className="mt-2 flex flex-wrap justify-end gap-2">
          <Link to="/cuenta/mis-tickets" className={buttonClasses("secondary")}>
            Cancelar
          </Link>
          <Button type="submit" pending={submitting} pendingLabel="Enviando…">
            Enviar {ticket.one}
          </Button>
        </div>
      </Form>
      <FormSnackbar snackbar={actionData?.snackbar} />
    </AccountPage>
  );
}
