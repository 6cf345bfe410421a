import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { DOCUMENT_TYPES } from "#common/fields";
import { formatDateTime, formatEventStart } from "#common/dates";
import { formatMoney } from "#common/money";
import { withBillingToken } from "#server/auth/billing-access";
import { isDomainError } from "#server/errors";
import { claimWaitlistOffer, getWaitlistOffer } from "#server/orders/waitlist-claim";
import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { payerDefaults } from "#app/lib/checkout-reply.server";
import { requireUser } from "#app/lib/session.server";
import { AccountPage } from "#app/components/account/AccountPage";
import { Button } from "#app/components/ui/Button";
import { controlAria, Field, FieldFrame, fieldInputClasses } from "#app/components/ui/Field";

export const meta: MetaFunction = () => [{ title: "Reclamar entradas de la lista de espera · Tribuna" }, { name: "robots", content: "noindex" }];

const PAYER_FIELDS = ["firstName", "lastName", "email", "documentType", "documentNumber", "phoneNumber"] as const;

/**
 * `/lista-de-espera/oferta/{offerId}`, the link of the offer's email: the held tickets and the payer's form.
 * Claiming places a normal order with them and goes on to its checkout. Only the account the offer was made to.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers, user } = await requireUser(request);
  headers.set("Cache-Control", "private, no-store");
  try {
    const offer = await getWaitlistOffer(ctx, params.offerId ?? "");
    return data(
      {
        offer: {
          id: offer.id,
          open: offer.open,
          status: offer.status,
          eventName: offer.eventName,
          eventSlug: offer.eventSlug,
          date: formatEventStart(offer.startsAt),
          ticket: offer.ticketTypeName,
          quantity: offer.quantity,
          wanted: offer.wanted,
          unitPrice: formatMoney(offer.unitPrice),
          expires: formatDateTime(offer.expiresAt),
        },
        defaults: payerDefaults(user) as Record<string, string>,
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
  const values = Object.fromEntries(PAYER_FIELDS.map((k) => [k, String(form.get(k) ?? "")]));
  try {
    const { billing } = await claimWaitlistOffer(ctx, params.offerId ?? "", { payer: values });
    return redirect(withBillingToken(`/checkout/${billing.id}`, billing.id), { headers });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    if (error.code === "NOT_FOUND" || error.code === "UNAUTHENTICATED") throw pageErrorResponse(error, { headers, signIn: request });
    const fieldErrors: Record<string, string[]> = {};
    for (const [key, messages] of Object.entries(error.fieldErrors)) fieldErrors[key.replace(/^payer\./, "")] = messages;
    const shown = PAYER_FIELDS.some((k) => fieldErrors[k]?.length);
    return data({ message: shown ? "Revisá los datos marcados." : error.message, fieldErrors, values }, { status: error.code === "CONFLICT" ? 409 : 400, headers });
  }
}

export default function ClaimOfferPage() {
  const { offer, defaults } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const value = (k: string) => reply?.values[k] ?? defaults[k] ?? "";
  const errors = (k: string) => reply?.fieldErrors[k] ?? null;
  const units = offer.quantity === 1 ? "1 entrada" : `${offer.quantity} entradas`;
  return (
    <AccountPage title="Reclamar tus entradas" description={`${offer.eventName} · ${offer.date}`}>
      {offer.open ? (
        <>
          <p className="mb-2">
            Te guardamos <strong>{units}</strong> «{offer.ticket}» a {offer.unitPrice} cada una, hasta el <strong>{offer.expires}</strong>.
          </p>
          {offer.quantity < offer.wanted ? (
            <p className="mb-2 text-sm">
              Pediste {offer.wanted} y por ahora volvieron {offer.quantity}. Si las reclamás, seguís en la lista por las que faltan, en el mismo lugar.
            </p>
          ) : null}
          <p className="mb-4 text-sm">
            Al reclamarlas se arma tu compra con estas entradas y pasás a pagar como en cualquier compra (el cargo por servicio se ve antes de pagar). Desde ahí
            tenés el tiempo de una compra para pagar; si no pagás, las entradas pasan a la siguiente persona de la lista.
          </p>
          <Form method="post" className="flex flex-col gap-3" noValidate>
            {reply?.message ? (
              <p role="alert" className="rounded-lg border border-red-500 p-3 text-sm text-red-700 dark:text-red-400">
                {reply.message}
              </p>
            ) : null}
            <Field label="Nombre" inputProps={{ id: "firstName", name: "firstName", defaultValue: value("firstName"), autoComplete: "given-name" }} errors={errors("firstName")} />
            <Field label="Apellido" inputProps={{ id: "lastName", name: "lastName", defaultValue: value("lastName"), autoComplete: "family-name" }} errors={errors("lastName")} />
            <Field label="Email" help="Ahí te mandamos las entradas." inputProps={{ id: "email", name: "email", type: "email", defaultValue: value("email"), autoComplete: "email" }} errors={errors("email")} />
            <FieldFrame id="documentType" label="Tipo de documento" errors={errors("documentType")}>
              <select id="documentType" name="documentType" defaultValue={value("documentType")} className={fieldInputClasses} {...controlAria("documentType", undefined, errors("documentType"))}>
                {DOCUMENT_TYPES.map((d) => (
                  <option key={d.value} value={d.value}>
                    {d.label}
                  </option>
                ))}
              </select>
            </FieldFrame>
            <Field label="Número de documento" inputProps={{ id: "documentNumber", name: "documentNumber", defaultValue: value("documentNumber"), inputMode: "numeric" }} errors={errors("documentNumber")} />
            <Field label="Teléfono" inputProps={{ id: "phoneNumber", name: "phoneNumber", type: "tel", defaultValue: value("phoneNumber"), autoComplete: "tel" }} errors={errors("phoneNumber")} />
            <Button type="submit">Reclamar y pasar a pagar</Button>
          </Form>
        </>
      ) : (
        <p>
          {offer.status === "claimed"
            ? "Ya reclamaste estas entradas: la compra está en tu email y en Mis tickets cuando la pagues."
            : "Esta reserva ya no está disponible: venció o saliste de la lista, y las entradas pasaron a la siguiente persona."}
        </p>
      )}
      <p className="mt-6 flex flex-wrap gap-x-4 text-sm">
        <Link to="/cuenta/lista-de-espera" className="text-[var(--accent)] underline underline-offset-2">
          Mis lugares en listas de espera
        </Link>
        <Link to={`/eventos/${offer.eventSlug}`} className="text-[var(--accent)] underline underline-offset-2">
          Ver el evento
        </Link>
      </p>
    </AccountPage>
  );
}
