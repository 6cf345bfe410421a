import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { addTicketStock, getEventForOrganizer } from "#server/events/events";
import { failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, FormErrorList, FormSnackbar, SelectInput, TextInput, useRemountKey } from "#app/components/backoffice/forms";
import { soldOfStock } from "#app/components/backoffice/format";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import { PickEvent } from "#app/components/backoffice/PickEvent";
import type { FormReply } from "#app/components/backoffice/types";
import { Button } from "#app/components/ui/Button";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Agregar entradas · Tribuna" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "events:manage");
  const { eventId } = bo.filters;
  if (!eventId) return data({ event: null, tickets: [], selected: "" }, { headers: bo.headers });
  const { event, tickets } = await guard(() => getEventForOrganizer(bo.ctx, eventId));
  const selected = new URL(request.url).searchParams.get("ticketTypeId") ?? "";
  return data(
    {
      event: { id: event.id, name: event.name, slug: event.slug },
      selected,
      tickets: tickets.map((t) => ({ id: t.id, name: t.name, sold: t.sold, stock: t.stock, status: t.status })),
    },
    { headers: bo.headers },
  );
}

/** `addTicketStock`: one increment, safe next to live sales. */
export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  try {
    await addTicketStock(bo.ctx, { id: values.ticketTypeId ?? "", quantity: values.quantity ?? "" });
  } catch (error) {
    return failedReply(error, values, {
      headers: bo.headers,
      extraErrors: {},
      fields: (key) => key === "quantity" || key === "id",
    });
  }
  const url = new URL(request.url);
  return savedRedirect(`${url.pathname}${url.search}`, bo.headers);
}

export default function AddStockPage() {
  const { event, tickets, selected } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const key = useRemountKey(reply, tickets);
  // The domain says "id"; the select is "ticketTypeId".
  const shown = reply ? { ...reply, errors: { ...reply.errors, ticketTypeId: reply.errors.id ?? [] } } : reply;

  if (!event) {
    return (
      <BackofficePage title="Agregar entradas" lead="Sumá stock a un tipo de entrada sin frenar la venta.">
        <PickEvent path={BO.addStock} intro="¿A qué evento le querés agregar entradas?" />
      </BackofficePage>
    );
  }
  return (
    <BackofficePage narrow title={`Agregar entradas a ${event.name}`} lead="El stock nuevo se suma al actual, también mientras se está vendiendo.">
      {tickets.length === 0 ? (
        <EmptyState>Este evento no tiene tipos de entrada.</EmptyState>
      ) : (
        <div className="flex flex-col gap-6">
          <Card>
            <BackofficeForm reply={shown} defaults={{ ticketTypeId: selected || tickets[0].id, quantity: "" }} key={key} method="post" className="flex flex-col gap-2">
              <FormErrorList reply={shown} />
              <div className="grid gap-x-4 gap-y-2 sm:grid-cols-2">
                <SelectInput
                  name="ticketTypeId"
                  label="Tipo de entrada"
                  options={tickets.map((t) => ({ value: t.id, label: `${t.name} (${soldOfStock(t.sold, t.stock)})` }))}
                  required
                />
                <TextInput name="quantity" label="Cantidad a agregar" type="number" min={1} max={1000000} inputMode="numeric" required />
              </div>
              <div className="flex justify-end">
                <Button type="submit">Agregar entradas</Button>
              </div>
            </BackofficeForm>
          </Card>
          <Card title="Stock actual">
            <ul className="divide-y divide-[var(--border)] text-sm">
              {tickets.map((t) => (
                <li key={t.id} className="flex justify-between gap-4 py-2" data-ticket={t.name}>
                  <span>{t.name}</span>
                  <span>Vendidas / stock: {soldOfStock(t.sold, t.stock)}</span>
                </li>
              ))}
            </ul>
          </Card>
        </div>
      )}
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
