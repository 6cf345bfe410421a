import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { formatDate, formatDateTime } from "#common/dates";
import { formatMoney } from "#common/money";
import { invitePromoter, myPromoterGroup, removePromoter, revokePromoterInvitation } from "#server/team/promoter-groups";
import { getMetricReferralSalesByUser } from "#server/promoters/metrics";
import { sellTicketsInHand, ticketsSellableInHand } from "#server/invitations/sales-in-hand";
import { failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, FormErrorList, FormSnackbar, SelectInput, TextInput, useIsPosting } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import type { FormReply } from "#app/components/backoffice/types";
import { CopyButton } from "#app/components/bank-transfers/CopyButton";
import { Badge } from "#app/components/ui/Badge";
import { Button } from "#app/components/ui/Button";
import { ConfirmButton } from "#app/components/ui/Dialog";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Mis ventas de RRPP · Tribuna" }];

/**
 * `/organizacion/relaciones-publicas/mi-grupo` (docs/promoters.md): a
 * promoter's links with their QR, their numbers (getMetricReferralSalesByUser)
 * and the sale in hand of PromoterAccount tickets; a lead also runs their
 * group here (invite, remove, each one's sales and entries per event).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "promoters:sell");
  const organizationId = bo.organization.id;
  const [mine, metrics, inHand] = await Promise.all([
    guard(() => myPromoterGroup(bo.ctx, organizationId)),
    guard(() => getMetricReferralSalesByUser(bo.ctx, { organizationId })),
    guard(() => ticketsSellableInHand(bo.ctx, organizationId)),
  ]);
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      mine: mine
        ? {
            ...mine,
            invitations: mine.invitations.map((i) => ({ id: i.id, who: i.who, expiresAt: formatDate(i.expiresAt) })),
          }
        : null,
      metrics,
      inHand: inHand.map((t) => ({ value: t.id, label: `${t.name} · ${t.eventName} · ${formatMoney(t.price)} · ${t.left === 1 ? "queda 1" : `quedan ${t.left}`}`, dates: t.dates.map((d) => ({ value: d.id, label: `${t.eventName}: ${formatDateTime(d.startsAt)}` })) })),
    },
    { headers: bo.headers },
  );
}

const SALE_FIELDS = new Set(["ticketTypeId", "eventDateId", "qty", "email", "firstName", "lastName", "documentNumber"]);

export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  const back = `${BO.myGroup}${bo.query()}`;
  const groupId = values.groupId ?? "";
  try {
    switch (values.intent) {
      case "sell": {
        const order = await sellTicketsInHand(bo.ctx, {
          organizationId: bo.organization.id,
          ticketTypeId: values.ticketTypeId ?? "",
          eventDateId: values.eventDateId,
          qty: values.qty,
          email: values.email ?? "",
          firstName: values.firstName ?? "",
          lastName: values.lastName ?? "",
          documentNumber: values.documentNumber,
        });
        return savedRedirect(back, bo.headers, `¡Vendidas! Le mandamos las entradas a ${order.payer.email}. Cobraste ${formatMoney(order.total)}.`);
      }
      case "invite": {
        const result = await invitePromoter(bo.ctx, { groupId, who: values.who ?? "", lead: false });
        return savedRedirect(back, bo.headers, `Le mandamos la invitación a ${result.who}.`);
      }
      case "remove":
        await removePromoter(bo.ctx, { groupId, userId: values.userId ?? "" });
        return savedRedirect(back, bo.headers, "Sacamos a esa persona del grupo.");
      case "revoke":
        await revokePromoterInvitation(bo.ctx, { groupId, invitationId: values.invitationId ?? "" });
        return savedRedirect(back, bo.headers, "Anulamos la invitación.");
      default:
        return savedRedirect(back, bo.headers);
    }
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, target: values.intent === "sell" ? "sell" : values.intent === "invite" ? "invite" : null, fields: (key) => SALE_FIELDS.has(key) || key === "who" });
  }
}

/** "1 vendida · 1 ingresó", "3 vendidas · 0 ingresaron". */
function soldAndIn(sold: number, entered: number): string {
  return `${sold} ${sold === 1 ? "vendida" : "vendidas"} · ${entered} ${entered === 1 ? "ingresó" : "ingresaron"}`;
}

function svgDownload(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

export default function MyPromoterGroupPage() {
  const { mine, metrics, inHand } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const posting = useIsPosting();
  if (!mine) {
    return (
      <BackofficePage title="Mis ventas de RRPP">
        <EmptyState>Todavía no sos parte de un grupo de RRPP de esta organización. Cuando te inviten, vas a ver acá tus links y tus ventas.</EmptyState>
      </BackofficePage>
    );
  }
  const me = mine.me;
  const dates = inHand.flatMap((t) => t.dates);
  return (
    <BackofficePage
      title={mine.isLead ? `Mi grupo: ${mine.group.name}` : "Mis ventas de RRPP"}
      lead={`Grupo ${mine.group.name}${mine.group.commissionPerTicket ? ` · ${formatMoney(mine.group.commissionPerTicket)} de comisión por entrada` : ""}. Compartí tu link: cada compra que entra por él suma a tus ventas.`}
    >
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4">
        <div className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4">
          <dt className="text-sm font-bold">Vendidas</dt>
          <dd className="text-3xl font-bold tabular-nums" data-testid="sold">{me?.sold ?? 0}</dd>
        </div>
        <div className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4">
          <dt className="text-sm font-bold">Ingresaron</dt>
          <dd className="text-3xl font-bold tabular-nums" data-testid="accredited">{me?.accredited ?? 0}</dd>
        </div>
        <div className="col-span-2 rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4 sm:col-span-1">
          <dt className="text-sm font-bold">Tu comisión</dt>
          <dd className="text-3xl font-bold tabular-nums">{formatMoney(me?.commission ?? 0)}</dd>
          {me && me.owed > 0 ? <dd className="mt-1 text-sm">Efectivo a rendir: {formatMoney(me.owed)}</dd> : null}
        </div>
      </dl>

      <Card title="Tus links" className="mt-4">
        {mine.links.length === 0 ? (
          <p>Tu grupo no tiene eventos a la venta ahora.</p>
        ) : (
          <ul className="flex flex-col gap-4">
            {mine.links.map((link) => (
              <li key={link.eventId} className="flex flex-col gap-2 border-b border-[var(--border)] pb-4 last:border-0 last:pb-0">
                <p className="font-bold">{link.eventName}</p>
                <div className="flex items-center gap-2">
                  <input readOnly value={link.url} aria-label={`Tu link para ${link.eventName}`} className="min-w-0 grow rounded-lg border border-[var(--border)] bg-[var(--bg)] px-3 py-2 text-sm" />
                  <CopyButton value={link.url} label={`tu link para ${link.eventName}`} />
                </div>
                <details>
                  <summary className="cursor-pointer text-sm font-bold">Ver QR</summary>
                  <div className="mt-2 flex flex-wrap items-end gap-3">
                    <span className="block size-48 rounded-lg bg-white p-2" role="img" aria-label={`QR de tu link para ${link.eventName}`} dangerouslySetInnerHTML={{ __html: link.qrSvg }} />
                    <a href={svgDownload(link.qrSvg)} download={`qr-${link.eventName}.svg`} className="text-sm font-bold underline">
                      Descargar QR
                    </a>
                  </div>
                </details>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card title="Tus ventas por evento" className="mt-4">
        {metrics.length === 0 ? (
          <p>Todavía no hay ventas con tu link.</p>
        ) : (
          <div className="relative overflow-x-auto">
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left">
                  <th scope="col" className="py-2">Entrada</th>
                  <th scope="col" className="px-2 py-2 text-right">Vendidas</th>
                  <th scope="col" className="px-2 py-2 text-right">Ingresaron</th>
                </tr>
              </thead>
              {metrics.map((m) => (
                <tbody key={m.eventId}>
                  <tr className="border-t border-[var(--border)]">
                    <th scope="rowgroup" className="py-2 text-left font-bold">{m.eventName}</th>
                    <td className="px-2 py-2 text-right font-bold tabular-nums">{m.totalCount}</td>
                    <td className="px-2 py-2 text-right font-bold tabular-nums">{m.totalAccreditedCount}</td>
                  </tr>
                  {m.tickets.map((t) => (
                    <tr key={t.name}>
                      <th scope="row" className="py-1 pl-4 text-left font-normal">{t.name}</th>
                      <td className="px-2 py-1 text-right tabular-nums">{t.count}</td>
                      <td className="px-2 py-1 text-right tabular-nums">{t.accredited}</td>
                    </tr>
                  ))}
                </tbody>
              ))}
            </table>
          </div>
        )}
      </Card>

      {inHand.length ? (
        <Card title="Vender en mano" className="mt-4">
          <p className="mb-3 text-sm">Para entradas que cobrás vos en efectivo: las emitimos ya y le llegan por email con su QR. Ese dinero lo rendís a la organización.</p>
          <BackofficeForm reply={reply} target="sell" idPrefix="venta" defaults={{ qty: "1", ticketTypeId: inHand.length === 1 ? inHand[0].value : "" }} method="post" className="flex flex-col gap-4">
            <FormErrorList reply={reply} target="sell" />
            <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
              <SelectInput name="ticketTypeId" label="Entrada" options={inHand.map(({ value, label }) => ({ value, label }))} placeholder="Elegí una" required className="sm:col-span-2" />
              {dates.length > 1 ? <SelectInput name="eventDateId" label="Fecha" options={dates} placeholder="Elegí una" className="sm:col-span-2" /> : null}
              <TextInput name="email" label="Email de quien compra" type="email" inputMode="email" autoComplete="off" required className="sm:col-span-2" />
              <TextInput name="firstName" label="Nombre" autoComplete="off" required />
              <TextInput name="lastName" label="Apellido" autoComplete="off" required />
              <TextInput name="documentNumber" label="DNI (opcional)" inputMode="numeric" autoComplete="off" />
              <TextInput name="qty" label="Cantidad" type="number" min={1} max={20} inputMode="numeric" required />
            </div>
            <div className="flex justify-end">
              <Button type="submit" name="intent" value="sell" pending={posting} pendingLabel="Emitiendo…">
                Emitir entradas cobradas
              </Button>
            </div>
          </BackofficeForm>
        </Card>
      ) : null}

      {mine.isLead ? (
        <section aria-labelledby="my-group" className="mt-6">
          <h2 id="my-group" className="mb-3 text-lg font-bold">Tu grupo</h2>
          <Card>
            <BackofficeForm reply={reply} target="invite" idPrefix="invitar" method="post" className="flex flex-col gap-3 sm:flex-row sm:items-end">
              <input type="hidden" name="groupId" value={mine.group.id} />
              <TextInput name="who" label="Sumar RRPP por email o apodo" autoComplete="off" autoCapitalize="none" className="grow" help="Le llega un link para aceptar; si no tiene cuenta, la crea." />
              <Button type="submit" name="intent" value="invite" className="sm:mb-6">Invitar</Button>
            </BackofficeForm>
            <FormErrorList reply={reply} target="invite" />
            {mine.invitations.length ? (
              <ul className="mt-3 flex flex-col gap-2 text-sm">
                {mine.invitations.map((i) => (
                  <li key={i.id} className="flex flex-wrap items-center justify-between gap-2">
                    <span>
                      Invitación pendiente: <span className="break-all font-bold">{i.who}</span> · vence el {i.expiresAt}
                    </span>
                    <Form noValidate method="post">
                      <input type="hidden" name="groupId" value={mine.group.id} />
                      <input type="hidden" name="invitationId" value={i.id} />
                      <Button type="submit" name="intent" value="revoke" variant="secondary">Anular</Button>
                    </Form>
                  </li>
                ))}
              </ul>
            ) : null}
          </Card>
          <ul className="mt-4 flex flex-col gap-3">
            {mine.members.map((m) => (
              <li key={m.userId} className="rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4" data-promoter={m.nickname ?? ""}>
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div>
                    <p className="font-bold">
                      {m.name} {m.isLead ? <Badge tone="secondary">Líder</Badge> : null}
                    </p>
                    <p className="text-sm text-[var(--muted)]">
                      {m.nickname ? `@${m.nickname}` : "Sin nickname"} · {soldAndIn(m.sold, m.accredited)}
                    </p>
                  </div>
                  {!m.isLead ? (
                    <Form noValidate method="post">
                      <input type="hidden" name="groupId" value={mine.group.id} />
                      <input type="hidden" name="userId" value={m.userId} />
                      <ConfirmButton name="intent" value="remove" title={`¿Sacar a ${m.name} del grupo?`} description="Su link deja de sumar ventas desde ahora; lo que ya vendió sigue siendo suyo." confirmLabel="Sacar">
                        Sacar
                      </ConfirmButton>
                    </Form>
                  ) : null}
                </div>
                {m.perEvent.length ? (
                  <ul className="mt-2 text-sm">
                    {m.perEvent.map((e) => (
                      <li key={e.eventId}>
                        {e.eventName}: {soldAndIn(e.sold, e.accredited)}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
