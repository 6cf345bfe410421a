import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatDate, formatDateTime } from "#common/dates";
import { MAX_INVITATION_QTY } from "#common/invitations";
import { invitationTarget, listInvitations, resendInvitation, revokeInvitation, sendInvitation } from "#server/invitations/invitations";
import { failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, FormErrorList, FormSnackbar, SelectInput, TextInput, useIsPosting } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { ListSearch } from "#app/components/backoffice/ListSearch";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import { PickEvent } from "#app/components/backoffice/PickEvent";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { Badge } from "#app/components/ui/Badge";
import { Pager } from "#app/components/ui/Pager";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { ConfirmButton } from "#app/components/ui/Dialog";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Invitaciones · Tribuna" }];

const FIELDS = new Set(["email", "firstName", "lastName", "documentNumber", "ticketTypeId", "qty", "eventDateId"]);
const PAGE_SIZE = 25;

/**
 * Complimentary tickets (docs/invitations.md): the form sends one person's
 * invitation for the event chosen in the filter; the list shows the
 * organization's invitations (of that event when one is chosen), to resend or
 * revoke. The domain checks the member may manage the event.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "events:manage");
  const url = new URL(request.url);
  const search = url.searchParams.get("q")?.trim() ?? "";
  const page = Math.max(0, Number.parseInt(url.searchParams.get("pagina") ?? "1", 10) - 1 || 0);
  const eventId = bo.filters.eventId || null;
  const [target, list] = await Promise.all([
    eventId ? guard(() => invitationTarget(bo.ctx, eventId, null)) : null,
    guard(() => listInvitations(bo.ctx, { organizationId: bo.organization.id, eventId: eventId ?? undefined, search: search || undefined, page, limit: PAGE_SIZE })),
  ]);
  const upcomingDates = target ? target.dates.filter((d) => d.status !== "deleted" && d.endsAt > bo.ctx.now) : [];
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      event: target ? { id: target.event.id, name: target.event.name, slug: target.event.slug, deleted: target.event.status === "deleted" } : null,
      tickets: target ? target.tickets.map((t) => ({ value: t.id, label: `${t.name} · ${t.stock - t.sold === 1 ? "queda 1" : `quedan ${Math.max(0, t.stock - t.sold)}`}`, dated: Boolean(t.eventDateId) })) : [],
      dates: upcomingDates.length > 1 ? upcomingDates.map((d) => ({ value: d.id, label: formatDateTime(d.startsAt) })) : [],
      search,
      page: list.page,
      pages: Math.max(1, Math.ceil(list.total / PAGE_SIZE)),
      total: list.total,
      invitations: list.items.map((i) => ({ ...i, createdAt: formatDate(i.createdAt) })),
    },
    { headers: bo.headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  const back = `${BO.invitations}${bo.query()}`;
  try {
    if (values.intent === "revoke") {
      await revokeInvitation(bo.ctx, values.orderId ?? "");
      return savedRedirect(back, bo.headers, "Anulamos la invitación: sus entradas ya no entran y el stock volvió a la venta.");
    }
    if (values.intent === "resend") {
      await resendInvitation(bo.ctx, values.orderId ?? "");
      return savedRedirect(back, bo.headers, "Listo: le volvemos a mandar las entradas por email.");
    }
    const order = await sendInvitation(bo.ctx, { ...values, eventId: bo.filters.eventId });
    return savedRedirect(back, bo.headers, `¡Listo! Le mandamos las entradas a ${order.payer.email}.`);
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, fields: (key) => FIELDS.has(key) });
  }
}

function InvitationForm({ reply, tickets, dates }: { reply?: FormReply; tickets: { value: string; label: string }[]; dates: { value: string; label: string }[] }) {
  const posting = useIsPosting();
  return (
    <BackofficeForm reply={reply} defaults={{ qty: "1", ticketTypeId: tickets.length === 1 ? tickets[0].value : "" }} method="post" className="flex flex-col gap-4">
      <FormErrorList reply={reply} />
      <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
        <TextInput name="email" label="Email" type="email" autoComplete="off" inputMode="email" required className="sm:col-span-2" help="Le llegan ahí las entradas con su QR." />
        <TextInput name="firstName" label="Nombre" autoComplete="off" required />
        <TextInput name="lastName" label="Apellido" autoComplete="off" required />
        <TextInput name="documentNumber" label="DNI (opcional)" inputMode="numeric" autoComplete="off" help="Para encontrarla en la puerta por DNI." />
        <TextInput name="qty" label="Cantidad" type="number" min={1} max={MAX_INVITATION_QTY} inputMode="numeric" required />
        <SelectInput name="ticketTypeId" label="Tipo de entrada" options={tickets} placeholder="Elegí uno" required className={dates.length ? "" : "sm:col-span-2"} />
        {dates.length ? <SelectInput name="eventDateId" label="Fecha" options={dates} placeholder="Elegí una" help="Solo si el tipo de entrada vale para todas las fechas." /> : null}
      </div>
      <div className="flex justify-end">
        <Button type="submit" name="intent" value="send" pending={posting} pendingLabel="Mandando…">
          Mandar invitación
        </Button>
      </div>
    </BackofficeForm>
  );
}

export default function InvitationsPage() {
  const { event, tickets, dates, invitations, search, page, pages, total } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  return (
    <BackofficePage
      title="Invitaciones"
      lead="Entradas sin cargo para invitados, prensa o sponsors: descuentan stock como una venta, llegan por email con su QR y entran por la puerta como cualquier entrada. No suman a tus ventas."
      actions={
        event ? (
          <Link to={href(BO.giveaway(event.slug))} className={buttonClasses("secondary")}>
            Mandar muchas con una planilla
          </Link>
        ) : null
      }
    >
      {event ? (
        <Card title={`Invitar a ${event.name}`}>
          {event.deleted ? <p>El evento fue eliminado: no se pueden mandar invitaciones.</p> : tickets.length ? <InvitationForm reply={reply} tickets={tickets} dates={dates} /> : <p>Este evento no tiene tipos de entrada todavía.</p>}
        </Card>
      ) : (
        <PickEvent path={BO.invitations} intro="¿Para qué evento querés mandar invitaciones?" />
      )}

      <section aria-labelledby="sent-invitations" className="mt-6">
        <div className="mb-3 flex flex-wrap items-end justify-between gap-2">
          <h2 id="sent-invitations" className="text-lg font-bold">
            Invitaciones mandadas {total ? <span className="text-sm font-normal text-[var(--muted)]">({total})</span> : null}
          </h2>
          <ListSearch path={BO.invitations} label="Buscar por nombre, email, DNI o código" value={search} />
        </div>
        {invitations.length === 0 ? (
          <EmptyState>{search ? "No hay invitaciones que coincidan con la búsqueda." : "Todavía no mandaste invitaciones."}</EmptyState>
        ) : (
          <ul className="flex flex-col gap-3">
            {invitations.map((i) => (
              <li key={i.id} className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4">
                <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
                  <div className="min-w-0">
                    <p className="font-bold">
                      {i.guestName} {i.status === "revoked" ? <Badge tone="danger">Anulada</Badge> : i.redeemed ? <Badge tone="success">{i.redeemed === i.qty ? "Ingresó" : `Ingresaron ${i.redeemed} de ${i.qty}`}</Badge> : null}
                    </p>
                    <p className="break-all text-sm">{i.email}{i.documentNumber ? ` · DNI ${i.documentNumber}` : ""}</p>
                    <p className="text-sm text-[var(--muted)]">
                      {i.tickets.map((t) => `${t.qty} × ${t.ticketTypeName}`).join(", ")} · {i.eventName} · {i.createdAt}
                      {i.invitedBy ? ` · por ${i.invitedBy}` : ""} · {i.code}
                    </p>
                  </div>
                  {i.status === "active" ? (
                    <div className="flex shrink-0 flex-wrap gap-2">
                      <Form noValidate method="post">
                        <input type="hidden" name="orderId" value={i.id} />
                        <Button type="submit" name="intent" value="resend" variant="secondary">
                          Reenviar email
                        </Button>
                      </Form>
                      {i.redeemed === 0 ? (
                        <Form noValidate method="post">
                          <input type="hidden" name="orderId" value={i.id} />
                          <ConfirmButton name="intent" value="revoke" title="¿Anular la invitación?" description={`Las entradas de ${i.guestName} dejan de servir y el stock vuelve a la venta. No se puede deshacer.`} confirmLabel="Anular">
                            Anular
                          </ConfirmButton>
                        </Form>
                      ) : null}
                    </div>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
        <Pager page={page + 1} pages={pages} href={(n) => href(BO.invitations, {}, { q: search, pagina: String(n) })} />
      </section>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
