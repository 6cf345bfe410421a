import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { formatDate } from "#common/dates";
import { formatMoney } from "#common/money";
import {
  createPromoterGroup,
  deletePromoterGroup,
  invitePromoter,
  listPromoterGroups,
  promoterScopeOptions,
  recordPromoterSettlement,
  removePromoter,
  revokePromoterInvitation,
  setGroupLead,
  updatePromoterGroup,
} from "#server/team/promoter-groups";
import { failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, Checkbox, FormErrorList, FormSnackbar, TextInput, useIsPosting } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import type { FormReply } from "#app/components/backoffice/types";
import { Badge } from "#app/components/ui/Badge";
import { Button } from "#app/components/ui/Button";
import { ConfirmButton } from "#app/components/ui/Dialog";
import { ScrollTable } from "#app/components/ui/ScrollTable";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Grupos de RRPP · Tribuna" }];

/**
 * `/organizacion/relaciones-publicas/grupos` (docs/promoters.md): the
 * organization's promoter groups — what each sells, its commission, its lead
 * and promoters with their numbers — and the cash handed in by those who sell
 * in hand. Owners and admins (promoters:manage; the domain checks again).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "promoters:manage");
  const [groups, options] = await Promise.all([guard(() => listPromoterGroups(bo.ctx, bo.organization.id)), guard(() => promoterScopeOptions(bo.ctx, bo.organization.id))]);
  bo.headers.set("Cache-Control", "private, no-store");
  const eventName = new Map(options.map((e) => [e.id, e.name]));
  const ticketName = new Map(options.flatMap((e) => e.ticketTypes.map((t) => [t.id, `${t.name} (${e.name})`] as const)));
  return data(
    {
      options,
      groups: groups.map(({ group, members, invitations }) => ({
        id: group.id,
        name: group.name,
        commission: group.commissionPerTicket,
        eventIds: group.eventIds,
        ticketTypeIds: group.ticketTypeIds,
        sells: group.eventIds.length ? group.eventIds.map((id) => eventName.get(id) ?? "Evento eliminado").join(", ") : "Todos los eventos",
        ticketTypes: group.ticketTypeIds.length ? group.ticketTypeIds.map((id) => ticketName.get(id) ?? "Entrada eliminada").join(", ") : null,
        members,
        invitations: invitations.map((i) => ({ id: i.id, who: i.who, lead: i.role === "promoter_lead", expiresAt: formatDate(i.expiresAt) })),
      })),
    },
    { headers: bo.headers },
  );
}

/** Checkboxes `event-{id}` / `ticket-{id}` → the ids ticked (readForm keeps one value per name). */
function ticked(values: Record<string, string>, prefix: string): string[] {
  return Object.keys(values)
    .filter((k) => k.startsWith(prefix) && values[k] === "on")
    .map((k) => k.slice(prefix.length));
}

const FIELDS = new Set(["name", "commissionPerTicket", "eventIds", "ticketTypeIds", "who", "amount", "note"]);

export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  const back = `${BO.promoterGroups}${bo.query()}`;
  const groupId = values.groupId ?? "";
  const scope = { name: values.name, commissionPerTicket: values.commissionPerTicket, eventIds: ticked(values, "event-"), ticketTypeIds: ticked(values, "ticket-") };
  try {
    switch (values.intent) {
      case "create":
        await createPromoterGroup(bo.ctx, { organizationId: bo.organization.id, ...scope });
        return savedRedirect(back, bo.headers, "¡Listo! Creamos el grupo. Ahora sumá a su líder y a sus RRPP.");
      case "update":
        await updatePromoterGroup(bo.ctx, { groupId, ...scope });
        return savedRedirect(back, bo.headers, "Guardamos los cambios del grupo.");
      case "delete":
        await deletePromoterGroup(bo.ctx, { groupId });
        return savedRedirect(back, bo.headers, "Borramos el grupo. Sus ventas pasadas siguen en los informes.");
      case "invite": {
        const result = await invitePromoter(bo.ctx, { groupId, who: values.who ?? "", lead: values.lead === "on" });
        return savedRedirect(back, bo.headers, result.invited ? `Le mandamos la invitación a ${result.who}.` : "Listo: ahora lidera el grupo.");
      }
      case "lead":
        await setGroupLead(bo.ctx, { groupId, userId: values.userId ?? "" });
        return savedRedirect(back, bo.headers, "Listo: cambiamos el líder del grupo.");
      case "remove":
        await removePromoter(bo.ctx, { groupId, userId: values.userId ?? "" });
        return savedRedirect(back, bo.headers, "Sacamos a esa persona del grupo: su link deja de sumar ventas.");
      case "revoke":
        await revokePromoterInvitation(bo.ctx, { groupId, invitationId: values.invitationId ?? "" });
        return savedRedirect(back, bo.headers, "Anulamos la invitación.");
      case "settle":
        await recordPromoterSettlement(bo.ctx, { organizationId: bo.organization.id, userId: values.userId ?? "", amount: values.amount ?? "", note: values.note });
        return savedRedirect(back, bo.headers, "Registramos el efectivo que te entregó.");
      default:
        return savedRedirect(back, bo.headers);
    }
  } catch (error) {
    const target = values.intent === "create" ? "create" : `${values.intent}-${groupId}${values.userId ? `-${values.userId}` : ""}`;
    return failedReply(error, values, { headers: bo.headers, target, fields: (key) => FIELDS.has(key) });
  }
}

type Options = ReturnType<typeof useLoaderData<typeof loader>>["options"];

/** Name, commission and what the group sells (no event ticked: all of them; no ticket type ticked: all of theirs). */
function GroupFields({ options }: { options: Options }) {
  return (
    <>
      <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
        <TextInput name="name" label="Nombre del grupo" required maxLength={60} autoComplete="off" />
        <TextInput name="commissionPerTicket" label="Comisión por entrada (opcional)" inputMode="decimal" autoComplete="off" help="En pesos, por cada entrada vendida con su link." />
      </div>
      {options.length ? (
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-medium">Qué vende</legend>
          <p className="text-xs text-[var(--muted)]">Sin tildar ningún evento, vende todos. Dentro de un evento, sin tildar entradas, cobra comisión por todas.</p>
          <ul className="flex flex-col gap-2">
            {options.map((event) => (
              <li key={event.id} className="rounded-lg border border-[var(--border)] p-3">
                <Checkbox name={`event-${event.id}`} label={event.name} />
                {event.ticketTypes.length ? (
                  <ul className="mt-2 flex flex-col gap-1 pl-6">
                    {event.ticketTypes.map((t) => (
                      <li key={t.id}>
                        <Checkbox name={`ticket-${t.id}`} label={t.name} />
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </fieldset>
      ) : null}
    </>
  );
}

function defaultsOf(group: { name: string; commission: number | null; eventIds: string[]; ticketTypeIds: string[] }) {
  return {
    name: group.name,
    commissionPerTicket: group.commission === null ? "" : String(group.commission / 100).replace(".", ","),
    ...Object.fromEntries(group.eventIds.map((id) => [`event-${id}`, "on"])),
    ...Object.fromEntries(group.ticketTypeIds.map((id) => [`ticket-${id}`, "on"])),
  };
}

export default function PromoterGroupsPage() {
  const { groups, options } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const posting = useIsPosting();
  return (
    <BackofficePage
      title="Grupos de RRPP"
      lead="Cada RRPP vende con su link (/eventos/evento/su-apodo) y ve sus números; el líder arma su grupo. Acá decidís qué vende cada grupo y cuánto cobra por entrada."
    >
      <Card title="Nuevo grupo">
        <BackofficeForm reply={reply} target="create" idPrefix="nuevo" method="post" className="flex flex-col gap-4">
          <FormErrorList reply={reply} target="create" />
          <GroupFields options={options} />
          <div className="flex justify-end">
            <Button type="submit" name="intent" value="create" pending={posting} pendingLabel="Creando…">
              Crear grupo
            </Button>
          </div>
        </BackofficeForm>
      </Card>

      {groups.length === 0 ? (
        <EmptyState>Todavía no hay grupos de RRPP.</EmptyState>
      ) : (
        groups.map((group) => (
          <section key={group.id} aria-labelledby={`group-${group.id}`} className="mt-6 rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div>
                <h2 id={`group-${group.id}`} className="text-lg font-bold">{group.name}</h2>
                <p className="text-sm text-[var(--muted)]">
                  Vende: {group.sells}
                  {group.ticketTypes ? ` · Comisión por: ${group.ticketTypes}` : ""} · {group.commission ? `${formatMoney(group.commission)} por entrada` : "Sin comisión"}
                </p>
              </div>
              <Form noValidate method="post">
                <input type="hidden" name="groupId" value={group.id} />
                <ConfirmButton name="intent" value="delete" title={`¿Borrar el grupo ${group.name}?`} description="Sus RRPP dejan la organización y sus links dejan de sumar. Las ventas pasadas quedan en los informes." confirmLabel="Borrar grupo">
                  Borrar
                </ConfirmButton>
              </Form>
            </div>

            {group.members.length ? (
              <ScrollTable label={`RRPP de ${group.name}`} className="mt-3" surface framed={false}>
                <table className="w-full min-w-[40rem] text-sm">
                  <caption className="sr-only">RRPP de {group.name} y sus números</caption>
                  <thead>
                    <tr className="text-left">
                      <th scope="col" className="py-2">RRPP</th>
                      <th scope="col" className="px-2 py-2 text-right">Vendidas</th>
                      <th scope="col" className="px-2 py-2 text-right">Ingresaron</th>
                      <th scope="col" className="px-2 py-2 text-right">Comisión</th>
                      <th scope="col" className="px-2 py-2 text-right">Efectivo a rendir</th>
                      <th scope="col" className="py-2"><span className="sr-only">Acciones</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    {group.members.map((m) => (
                      <tr key={m.userId} className="border-t border-[var(--border)] align-top">
                        <th scope="row" className="py-2 text-left font-normal">
                          <span className="font-bold">{m.name}</span> {m.isLead ? <Badge tone="secondary">Líder</Badge> : null}
                          <span className="block text-xs text-[var(--muted)]">{m.nickname ? `@${m.nickname}` : "Sin nickname"} · {m.email}</span>
                        </th>
                        <td className="px-2 py-2 text-right tabular-nums">{m.sold}</td>
                        <td className="px-2 py-2 text-right tabular-nums">{m.accredited}</td>
                        <td className="px-2 py-2 text-right tabular-nums">{formatMoney(m.commission)}</td>
                        <td className="px-2 py-2 text-right tabular-nums">{formatMoney(m.owed)}</td>
                        <td className="py-2">
                          <div className="flex flex-wrap justify-end gap-2">
                            {!m.isLead ? (
                              <Form noValidate method="post">
                                <input type="hidden" name="groupId" value={group.id} />
                                <input type="hidden" name="userId" value={m.userId} />
                                <Button type="submit" name="intent" value="lead" variant="secondary">Hacer líder</Button>
                              </Form>
                            ) : null}
                            <Form noValidate method="post">
                              <input type="hidden" name="groupId" value={group.id} />
                              <input type="hidden" name="userId" value={m.userId} />
                              <ConfirmButton name="intent" value="remove" title={`¿Sacar a ${m.name} del grupo?`} description="Su link deja de sumar ventas desde ahora; lo que ya vendió sigue siendo suyo." confirmLabel="Sacar">
                                Sacar
                              </ConfirmButton>
                            </Form>
                          </div>
                          {m.collected > 0 ? (
                            <BackofficeForm reply={reply} target={`settle-${group.id}-${m.userId}`} idPrefix={`rendir-${m.userId}`} method="post" className="mt-2 flex flex-wrap items-end justify-end gap-2">
                              <input type="hidden" name="groupId" value={group.id} />
                              <input type="hidden" name="userId" value={m.userId} />
                              <TextInput name="amount" label={`Efectivo que entregó ${m.name}`} inputMode="decimal" autoComplete="off" className="w-40" />
                              <Button type="submit" name="intent" value="settle" variant="secondary">Registrar</Button>
                            </BackofficeForm>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollTable>
            ) : (
              <p className="mt-3 text-sm">Este grupo todavía no tiene RRPP.</p>
            )}

            {group.invitations.length ? (
              <ul className="mt-3 flex flex-col gap-2 text-sm">
                {group.invitations.map((i) => (
                  <li key={i.id} className="flex flex-wrap items-center justify-between gap-2">
                    <span>
                      Invitación pendiente: <span className="break-all font-bold">{i.who}</span>
                      {i.lead ? " (como líder)" : ""} · vence el {i.expiresAt}
                    </span>
                    <Form noValidate method="post">
                      <input type="hidden" name="groupId" value={group.id} />
                      <input type="hidden" name="invitationId" value={i.id} />
                      <Button type="submit" name="intent" value="revoke" variant="secondary">Anular</Button>
                    </Form>
                  </li>
                ))}
              </ul>
            ) : null}

            <BackofficeForm reply={reply} target={`invite-${group.id}`} idPrefix={`invitar-${group.id}`} method="post" className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
              <input type="hidden" name="groupId" value={group.id} />
              <TextInput name="who" label="Sumar RRPP por email o apodo" autoComplete="off" autoCapitalize="none" className="grow" help="Le llega un link para aceptar; si no tiene cuenta, la crea." />
              <Checkbox name="lead" label="Como líder del grupo" className="sm:mb-3" />
              <Button type="submit" name="intent" value="invite" className="sm:mb-3">Invitar</Button>
            </BackofficeForm>
            <FormErrorList reply={reply} target={`invite-${group.id}`} />

            <details className="mt-4">
              <summary className="cursor-pointer font-bold">Editar el grupo</summary>
              <BackofficeForm reply={reply} target={`update-${group.id}`} defaults={defaultsOf(group)} idPrefix={`editar-${group.id}`} method="post" className="mt-3 flex flex-col gap-4">
                <input type="hidden" name="groupId" value={group.id} />
                <FormErrorList reply={reply} target={`update-${group.id}`} />
                <GroupFields options={options} />
                <div className="flex justify-end">
                  <Button type="submit" name="intent" value="update">Guardar cambios</Button>
                </div>
              </BackofficeForm>
            </details>
          </section>
        ))
      )}
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
