import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { createCoupon } from "#server/coupons/coupons";
import { getEventForOrganizer } from "#server/events/events";
import { failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { couponInput, ticketKey } from "#app/lib/coupon-form.server";
import { centavosToInput } from "#app/components/backoffice/format";
import { FormSnackbar } from "#app/components/backoffice/forms";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { PickEvent } from "#app/components/backoffice/PickEvent";
import type { FormReply } from "#app/components/backoffice/types";
import { COUPON_FORM_FIELDS, CouponForm, couponFormDefaults } from "#app/components/coupons/CouponForm";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Crear cupón · Tribuna" }];

const NEW_PATH = "/organizacion/cupones/nuevo";

/** The coupon is for the event chosen in the filter (else: pick one). */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "events:manage");
  const { eventId } = bo.filters;
  if (!eventId) return data({ event: null, tickets: [] }, { headers: bo.headers });
  const { event, tickets } = await guard(() => getEventForOrganizer(bo.ctx, eventId));
  return data(
    {
      event: { id: event.id, name: event.name },
      tickets: tickets.filter((t) => t.status !== "deleted").map((t) => ({ id: t.id, name: t.name })),
    },
    { headers: bo.headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  try {
    await createCoupon(bo.ctx, { ...couponInput(values), eventId: bo.filters.eventId });
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, mapKey: ticketKey, fields: (key) => COUPON_FORM_FIELDS.has(key) });
  }
  return savedRedirect(`/organizacion/cupones${bo.query()}`, bo.headers, "¡Listo! Creamos el cupón");
}

export default function NewCouponPage() {
  const { event, tickets } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  if (!event) {
    return (
      <BackofficePage title="Crear cupón" lead="Un cupón vale para un evento.">
        <PickEvent path={NEW_PATH} intro="¿Para qué evento es el cupón?" />
      </BackofficePage>
    );
  }
  return (
    <BackofficePage narrow title={`Crear cupón para ${event.name}`} lead="Un uso es una compra. Si la compra no se paga a tiempo, el uso vuelve.">
      <Card>
        <CouponForm reply={reply} defaults={couponFormDefaults(null, tickets, centavosToInput)} tickets={tickets} submitLabel="Crear cupón" />
      </Card>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
