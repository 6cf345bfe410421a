import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireEvent, setEventPixel } from "#server/events/events";
import { failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, FormErrorList, FormSnackbar, TextInput, useRemountKey } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { PickEvent } from "#app/components/backoffice/PickEvent";
import type { FormReply } from "#app/components/backoffice/types";
import { Button } from "#app/components/ui/Button";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Píxel de marketing · Tribuna" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "pixel:manage");
  const { eventId } = bo.filters;
  if (!eventId) return data({ event: null }, { headers: bo.headers });
  // pixel:manage, not sales:read: the marketing role sets pixels without seeing sales.
  const event = await guard(() => requireEvent(bo.ctx, eventId, "pixel:manage"));
  return data({ event: { id: event.id, name: event.name, slug: event.slug, pixelId: event.pixelId ?? "" } }, { headers: bo.headers });
}

/** `setEventPixel`: digits only; empty removes it. */
export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  try {
    await setEventPixel(bo.ctx, { eventId: values.eventId ?? "", pixelId: values.pixelId ?? "" });
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, fields: (key) => key === "pixelId" });
  }
  const url = new URL(request.url);
  return savedRedirect(`${url.pathname}${url.search}`, bo.headers);
}

export default function MarketingPixelPage() {
  const { event } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const key = useRemountKey(reply, event);
  const lead = (
    <>
      El píxel de Meta (Facebook e Instagram) es un código de tu cuenta publicitaria. Si lo cargás, la página de tu
      evento le avisa a Meta cuando alguien la visita, así podés medir qué anuncios traen visitas y mostrarles tus
      anuncios otra vez a quienes ya la vieron. Lo encontrás en el Administrador de eventos de Meta: es un número
      largo, por ejemplo 123456789012345.
    </>
  );
  if (!event) {
    return (
      <BackofficePage title="Píxel de marketing" lead={lead}>
        <PickEvent path={BO.pixel} intro="¿A qué evento le querés cargar el píxel?" />
      </BackofficePage>
    );
  }
  return (
    <BackofficePage narrow title={`Píxel de marketing de ${event.name}`} lead={lead}>
      <Card>
        <BackofficeForm reply={reply} defaults={{ pixelId: event.pixelId }} key={key} method="post" className="flex flex-col gap-2">
          <input type="hidden" name="eventId" value={event.id} />
          <FormErrorList reply={reply} />
          <TextInput
            name="pixelId"
            label="ID del píxel"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="off"
            help="Solo números. Dejalo vacío para quitarlo."
          />
          <p className="text-sm text-[var(--muted)]">
            {event.pixelId ? `Activo: se carga en la página del evento (/eventos/${event.slug}).` : "Este evento no tiene píxel."}
          </p>
          <div className="flex justify-end">
            <Button type="submit">Guardar píxel</Button>
          </div>
        </BackofficeForm>
      </Card>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
