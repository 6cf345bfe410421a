import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatMoney } from "#common/money";
import { getEventForOrganizer } from "#server/events/events";
import { MENU_CATEGORY_LABELS } from "#common/menu";
import { createMenuItem, listMenuItems, moveMenuItem, setMenuItemStatus, updateMenuItem } from "#server/menu/menu";
import { acceptImageUpload, failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { centavosToInput } from "#app/components/backoffice/format";
import { BackofficeForm, Checkbox, FormErrorList, FormSnackbar, ImageInput, SelectInput, TextArea, TextInput, useIsPosting } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import { PickEvent } from "#app/components/backoffice/PickEvent";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { Badge } from "#app/components/ui/Badge";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { ConfirmButton } from "#app/components/ui/Dialog";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Menú del evento · Tribuna" }];

const FIELDS = new Set(["name", "description", "category", "price", "stock", "maxPerOrder", "visible", "image", "imageUrl"]);
const CATEGORY_OPTIONS = Object.entries(MENU_CATEGORY_LABELS).map(([value, label]) => ({ value, label }));

/**
 * The menu of the event chosen in the filter (docs/menu.md): add and edit
 * drinks, food and combos, pause, hide, reorder and see what sold. Buyers
 * order on /menu/{slug}; the bar serves with the door screen in bar mode.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "events:manage");
  const eventId = bo.filters.eventId || null;
  if (!eventId) return data({ event: null, items: [], editing: null }, { headers: bo.headers });
  const { event } = await guard(() => getEventForOrganizer(bo.ctx, eventId));
  const items = await guard(() => listMenuItems(bo.ctx, eventId));
  const editId = new URL(request.url).searchParams.get("editar");
  const editing = items.find((i) => i.id === editId) ?? null;
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      event: { id: event.id, name: event.name, slug: event.slug },
      items: items.map((i) => ({ ...i, priceLabel: formatMoney(i.price) })),
      editing: editing
        ? {
            id: editing.id,
            name: editing.name,
            description: editing.description,
            category: editing.category,
            price: centavosToInput(editing.price),
            stock: String(editing.stock),
            maxPerOrder: String(editing.maxPerOrder),
            visible: editing.visible ? "on" : "",
            imageUrl: editing.imageUrl ?? "",
          }
        : null,
    },
    { headers: bo.headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const form = await readForm(request);
  const back = `${BO.menu}${bo.query()}`;
  const { values } = form;
  try {
    switch (values.intent) {
      case "pause":
      case "resume":
      case "delete":
        await setMenuItemStatus(bo.ctx, { id: values.itemId ?? "", status: values.intent === "pause" ? "paused" : values.intent === "resume" ? "active" : "deleted" });
        return savedRedirect(back, bo.headers, values.intent === "pause" ? "Pausamos la consumición: no se vende hasta que la reactives." : values.intent === "resume" ? "Reactivamos la consumición." : "Sacamos la consumición del menú. Lo ya vendido sigue valiendo en la barra.");
      case "up":
      case "down": {
        await moveMenuItem(bo.ctx, { id: values.itemId ?? "", direction: values.intent });
        return savedRedirect(back, bo.headers, "Listo: cambiamos el orden del menú.");
      }
      default: {
        const upload = await acceptImageUpload(bo.ctx, form, "image", "imageUrl");
        if (Object.keys(upload.errors).length) return failedReply(null, upload.values, { headers: bo.headers, extraErrors: upload.errors, fields: (key) => FIELDS.has(key) });
        const input = { ...upload.values, visible: upload.values.visible === "on" };
        if (values.itemId) await updateMenuItem(bo.ctx, { ...input, id: values.itemId });
        else await createMenuItem(bo.ctx, { ...input, eventId: bo.filters.eventId });
        return savedRedirect(back, bo.headers, values.itemId ? "¡Listo! Guardamos los cambios." : "¡Listo! Sumamos la consumición al menú.");
      }
    }
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, fields: (key) => FIELDS.has(key) });
  }
}

function MenuItemForm({ reply, editing }: { reply?: FormReply; editing: Record<string, string> | null }) {
  const posting = useIsPosting();
  const href = useBackofficeHref();
  return (
    <BackofficeForm reply={reply} defaults={editing ?? { category: "drink", maxPerOrder: "10", visible: "on" }} method="post" encType="multipart/form-data" className="flex flex-col gap-4" key={editing?.id ?? "new"}>
      <FormErrorList reply={reply} />
      {editing ? <input type="hidden" name="itemId" value={editing.id} /> : null}
      <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
        <TextInput name="name" label="Nombre" required maxLength={80} help="Por ejemplo: Fernet con coca, Hamburguesa completa." />
        <SelectInput name="category" label="Tipo" options={CATEGORY_OPTIONS} required />
        <TextArea name="description" label="Descripción (opcional)" rows={2} maxLength={500} className="sm:col-span-2" />
        <TextInput name="price" label="Precio en pesos" inputMode="decimal" required help="Por ejemplo 4500 o 4.500,50." />
        <TextInput name="stock" label="Stock" type="number" min={0} inputMode="numeric" required help="Cuántas unidades vendés en total." />
        <TextInput name="maxPerOrder" label="Máximo por compra" type="number" min={1} max={100} inputMode="numeric" />
        <Checkbox name="visible" label="Visible en el menú" help="Si no está visible, nadie la puede pedir." />
        <div className="sm:col-span-2">
          <ImageInput name="image" urlName="imageUrl" label="Foto (opcional)" alt="Foto de la consumición" />
        </div>
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        {editing ? (
          <Link to={href(BO.menu)} className={buttonClasses("ghost")}>
            Cancelar
          </Link>
        ) : null}
        <Button type="submit" name="intent" value="save" pending={posting} pendingLabel="Guardando…">
          {editing ? "Guardar cambios" : "Sumar al menú"}
        </Button>
      </div>
    </BackofficeForm>
  );
}

export default function MenuAdminPage() {
  const { event, items, editing } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  if (!event) {
    return (
      <BackofficePage title="Menú" lead="Bebidas, comidas y combos que tu público paga desde el celular y retira en la barra con un QR.">
        <PickEvent path={BO.menu} intro="¿De qué evento es el menú?" />
      </BackofficePage>
    );
  }
  return (
    <BackofficePage
      title={`Menú de ${event.name}`}
      lead="Tu público pide y paga desde el celular; cada consumición llega con su QR y la barra la canjea una sola vez, con la pantalla de la puerta en modo barra."
      actions={
        <>
          <a href={`/menu/${event.slug}`} className={buttonClasses("secondary")}>
            Ver el menú como comprador
          </a>
          <a href={`${BO.door(event.slug)}?modo=barra`} className={buttonClasses("secondary")}>
            Abrir la barra
          </a>
        </>
      }
    >
      <Card title={editing ? `Editar ${editing.name}` : "Sumar una consumición"}>
        <MenuItemForm reply={reply} editing={editing} />
      </Card>
      <section aria-labelledby="menu-items" className="mt-6">
        <h2 id="menu-items" className="mb-3 text-lg font-bold">
          En el menú
        </h2>
        {items.length === 0 ? (
          <EmptyState>Todavía no hay nada en el menú.</EmptyState>
        ) : (
          <ol className="flex flex-col gap-3">
            {items.map((item, index) => (
              <li key={item.id} className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4">
                <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
                  <div className="flex min-w-0 gap-3">
                    {item.imageUrl ? <img src={item.imageUrl} alt="" width={56} height={56} className="h-14 w-14 shrink-0 rounded-lg object-cover" /> : null}
                    <div className="min-w-0">
                      <p className="font-bold">
                        {item.name} <Badge tone="neutral">{item.categoryLabel}</Badge> {item.status === "paused" ? <Badge tone="warning">Pausada</Badge> : null}{" "}
                        {!item.visible ? <Badge tone="neutral">Oculta</Badge> : null}
                      </p>
                      <p className="text-sm">
                        {item.priceLabel} · vendidas {item.sold} de {item.stock}
                        {item.available === 0 ? " · agotada" : ""}
                      </p>
                      {item.description ? <p className="text-sm text-[var(--muted)]">{item.description}</p> : null}
                    </div>
                  </div>
                  <div className="flex shrink-0 flex-wrap gap-2">
                    <Link to={href(BO.menu, {}, { editar: item.id })} className={buttonClasses("secondary")}>
                      Editar
                    </Link>
                    <Form noValidate method="post" className="flex gap-2">
                      <input type="hidden" name="itemId" value={item.id} />
                      <Button type="submit" name="intent" value="up" variant="ghost" disabled={index === 0} aria-label={`Subir ${item.name}`}>
                        ↑
                      </Button>
                      <Button type="submit" name="intent" value="down" variant="ghost" disabled={index === items.length - 1} aria-label={`Bajar ${item.name}`}>
                        ↓
                      </Button>
                      <Button type="submit" name="intent" value={item.status === "paused" ? "resume" : "pause"} variant="secondary">
                        {item.status === "paused" ? "Reactivar" : "Pausar"}
                      </Button>
                    </Form>
                    <Form noValidate method="post">
                      <input type="hidden" name="itemId" value={item.id} />
                      <ConfirmButton name="intent" value="delete" title={`¿Sacar ${item.name} del menú?`} description="No se vende más. Lo ya vendido sigue valiendo en la barra." confirmLabel="Sacar">
                        Sacar
                      </ConfirmButton>
                    </Form>
                  </div>
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
