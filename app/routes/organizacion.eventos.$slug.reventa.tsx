import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatEventStart } from "#common/dates";
import { formatMoney } from "#common/money";
import { getEventResale, setEventResale } from "#server/resale/listings";
import { markResalePayoutDone, retryResalePayout } from "#server/resale/payouts";
import { failedReply, guard, readForm, requireOrganizationEvent, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, Checkbox, FormErrorList, FormSnackbar, TextInput, useRemountKey } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { Button } from "#app/components/ui/Button";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Reventa oficial · Tribuna" }];

const STATUS_LABELS: Record<string, string> = { active: "A la venta", held: "Alguien la está pagando", sold: "Vendida", cancelled: "Cancelada" };
const PAYOUT_LABELS: Record<string, string> = { none: "—", pending: "Devolución en curso", done: "Devuelta", failed: "La devolución falló: revisala" };

/** `/organizacion/eventos/{slug}/reventa`: the event's resale rules (cap, fee, on/off) and its listings (docs/resale.md). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { bo, event } = await requireOrganizationEvent(request, params.slug);
  const { rules, listings } = await guard(() => getEventResale(bo.ctx, event.id));
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      event: { id: event.id, name: event.name, slug: event.slug },
      defaults: { enabled: rules.enabled ? "on" : "", capPercent: String(rules.capBps / 100), feePercent: String(rules.feeBps / 100).replace(".", ",") } as Record<string, string>,
      listings: listings.map((l) => ({
        id: l.id,
        status: STATUS_LABELS[l.status] ?? l.status,
        price: formatMoney(l.price),
        fee: formatMoney(l.fee),
        payout: formatMoney(l.payout),
        payoutStatus: l.payoutMethod === "organizer" && l.payoutStatus === "pending" ? "A devolver por vos, por transferencia" : (PAYOUT_LABELS[l.payoutStatus] ?? l.payoutStatus),
        /** What the organizer can do about the seller's money: mark a transfer done, or retry a failed Mercado Pago refund. */
        payoutAction: l.status !== "sold" ? null : l.payoutMethod === "organizer" && l.payoutStatus === "pending" ? ("payout-done" as const) : l.payoutMethod === "provider" && l.payoutStatus === "failed" ? ("payout-retry" as const) : null,
        createdAt: formatEventStart(l.createdAt),
      })),
    },
    { headers: bo.headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { bo, event } = await requireOrganizationEvent(request, params.slug);
  const { values } = await readForm(request);
  const url = new URL(request.url);
  if (values.intent === "payout-done" || values.intent === "payout-retry") {
    const input = { listingId: values.listingId ?? "" };
    try {
      if (values.intent === "payout-done") await markResalePayoutDone(bo.ctx, input);
      else await retryResalePayout(bo.ctx, input);
    } catch (error) {
      return failedReply(error, values, { headers: bo.headers, target: "payouts" });
    }
    return savedRedirect(`${url.pathname}${url.search}`, bo.headers, values.intent === "payout-done" ? "Listo: la devolución figura como hecha." : "Listo: volvemos a intentar la devolución por Mercado Pago.");
  }
  const extraErrors: Record<string, string[]> = {};
  const cap = Number((values.capPercent ?? "").trim());
  const fee = Number((values.feePercent ?? "0").trim().replace(",", ".") || "0");
  if (!Number.isInteger(cap)) extraErrors.capPercent = ["Ingresá el tope como un número entero de 1 a 100."];
  if (!Number.isFinite(fee)) extraErrors.feePercent = ["Ingresá el cargo como un número, por ejemplo 5 o 2,5."];
  if (Object.keys(extraErrors).length) return failedReply(null, values, { headers: bo.headers, extraErrors });
  try {
    await setEventResale(bo.ctx, { eventId: event.id, enabled: values.enabled === "on", capPercent: cap, feePercent: fee });
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, fields: (key) => ["enabled", "capPercent", "feePercent"].includes(key) });
  }
  return savedRedirect(`${url.pathname}${url.search}`, bo.headers);
}

export default function EventResalePage() {
  const { event, defaults, listings } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  const key = useRemountKey(reply, defaults);
  return (
    <BackofficePage
      narrow
      title={`Reventa oficial de ${event.name}`}
      lead={
        <>
          Quien no puede ir publica su entrada como mucho al precio que pagó; quien la compra recibe una entrada nueva y la vieja deja de servir. A quien pagó con Mercado Pago le devolvemos la plata ahí; a quien pagó de otra forma se la devolvés vos por transferencia.{" "}
          <Link to={href(BO.editEvent(event.slug), { eventId: event.id })} className="text-[var(--accent)] underline underline-offset-2">
            Volver al evento
          </Link>
        </>
      }
    >
      <div className="flex flex-col gap-6">
        <Card title="Reglas">
          <BackofficeForm reply={reply} defaults={defaults} key={key} method="post" className="flex flex-col gap-4">
            <FormErrorList reply={reply} />
            <Checkbox name="enabled" label="Permitir la reventa oficial en este evento" help="Si la apagás, las publicaciones dejan de verse en la página del evento." />
            <TextInput name="capPercent" label="Tope del precio (% de lo que pagó cada persona)" inputMode="numeric" required help="100 es el precio que pagó; nunca puede ser más. Vale para las publicaciones nuevas." />
            <TextInput name="feePercent" label="Cargo por reventa (% del precio, lo descontamos de lo que recibe quien vende)" inputMode="decimal" help="De 0 a 50. Quien vende lo ve antes de publicar." />
            <div className="flex justify-end">
              <Button type="submit">Guardar</Button>
            </div>
          </BackofficeForm>
        </Card>
        <Card title="Publicaciones">
          <FormErrorList reply={reply} target="payouts" />
          {listings.length ? (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead>
                  <tr>
                    <th className="py-1 pr-3">Publicada</th>
                    <th className="py-1 pr-3">Estado</th>
                    <th className="py-1 pr-3">Precio</th>
                    <th className="py-1 pr-3">Cargo</th>
                    <th className="py-1 pr-3">Para quien vende</th>
                    <th className="py-1">Devolución</th>
                  </tr>
                </thead>
                <tbody>
                  {listings.map((l) => (
                    <tr key={l.id} className="border-t border-[var(--border)]">
                      <td className="py-1 pr-3">{l.createdAt}</td>
                      <td className="py-1 pr-3">{l.status}</td>
                      <td className="py-1 pr-3">{l.price}</td>
                      <td className="py-1 pr-3">{l.fee}</td>
                      <td className="py-1 pr-3">{l.payout}</td>
                      <td className="py-1">
                        {l.payoutStatus}
                        {l.payoutAction ? (
                          <Form method="post" className="mt-1">
                            <input type="hidden" name="intent" value={l.payoutAction} />
                            <input type="hidden" name="listingId" value={l.id} />
                            <Button type="submit" variant="secondary">
                              {l.payoutAction === "payout-done" ? "Ya se la devolví" : "Reintentar la devolución"}
                            </Button>
                          </Form>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="text-sm text-[var(--muted)]">Todavía nadie publicó entradas de este evento.</p>
          )}
        </Card>
      </div>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
