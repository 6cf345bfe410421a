import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatDate } from "#common/dates";
import { Conflict, isDomainError } from "#server/errors";
import { changeMemberRole, inviteMember, listTeam, removeMember, revokeInvitation, ROLE_LABELS, roleTable, TEAM_ROLES } from "#server/team/team";
import { failedReply, guard, readForm, requireOrganization, savedRedirect, secondFactorRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, FormErrorList, FormSnackbar, SelectInput, TextInput, useRemountKey } from "#app/components/backoffice/forms";
import { teamInvitationFormSchema } from "#app/components/backoffice/schemas";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { Button } from "#app/components/ui/Button";
import { ScrollTable } from "#app/components/ui/ScrollTable";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Equipo · Tribuna" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "members:manage");
  const team = await guard(() => listTeam(bo.ctx, bo.organization.id));
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      me: bo.user.id,
      myRole: bo.role,
      members: team.members.map((m) => ({ ...m, since: formatDate(m.since) })),
      invitations: team.invitations.map((i) => ({ ...i, roleLabel: ROLE_LABELS[i.role], expiresAt: formatDate(i.expiresAt) })),
      roles: TEAM_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] })),
      // Every member's role in words, RRPP included (they are not handed out here, so they are not in `roles`).
      roleLabels: ROLE_LABELS,
      table: roleTable(),
    },
    { headers: bo.headers },
  );
}

const SAVED: Record<string, string> = {
  invite: "Listo: le mandamos la invitación por correo.",
  role: "Listo: cambiamos el rol.",
  remove: "Listo: ya no es parte del equipo.",
  revoke: "Listo: anulamos la invitación.",
};

export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  const organizationId = bo.organization.id;
  try {
    switch (values.intent) {
      case "invite":
        await inviteMember(bo.ctx, { organizationId, email: values.email ?? "", role: values.role ?? "" });
        break;
      case "role":
        await changeMemberRole(bo.ctx, { organizationId, userId: values.userId ?? "", role: values.role ?? "" });
        break;
      case "remove":
        await removeMember(bo.ctx, { organizationId, userId: values.userId ?? "" });
        break;
      case "revoke":
        await revokeInvitation(bo.ctx, { organizationId, invitationId: values.invitationId ?? "" });
        break;
      default:
        return data({ errors: {}, formErrors: ["No entendimos qué querías hacer."], values } as FormReply, { status: 400, headers: bo.headers });
    }
  } catch (error) {
    const verify = secondFactorRedirect(error, new URL(request.url).pathname + new URL(request.url).search, bo.headers);
    if (verify) return verify;
    // A rule about roles ("solo un dueño…") is an answer next to the form, not a page that ends the visit.
    const shown = isDomainError(error) && error.code === "FORBIDDEN" && bo.can["members:manage"] ? new Conflict(error.message) : error;
    return failedReply(shown, values, { headers: bo.headers, target: values.intent === "invite" ? "invite" : null, fields: (key) => values.intent === "invite" && (key === "email" || key === "role") });
  }
  const url = new URL(request.url);
  return savedRedirect(`${url.pathname}${url.search}`, bo.headers, SAVED[values.intent ?? ""]);
}

export default function TeamPage() {
  const { me, members, invitations, roles, roleLabels, table } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const key = useRemountKey(reply);
  const href = useBackofficeHref();
  return (
    <BackofficePage title="Equipo" lead="Las personas que trabajan con vos en Tribuna y qué puede hacer cada una. Para sumar a alguien, mandale una invitación: le llega un link que sirve tenga o no cuenta.">
      <div className="flex flex-col gap-6">
        <FormErrorList reply={reply?.target === "invite" ? null : reply} />
        <Card title="Invitar a alguien">
          <BackofficeForm reply={reply} target="invite" defaults={{ role: "staff" }} schema={teamInvitationFormSchema} key={key} method="post" className="flex flex-col gap-2 sm:flex-row sm:items-start">
            <input type="hidden" name="intent" value="invite" />
            <TextInput name="email" label="Email" type="email" autoComplete="off" className="flex-1" />
            <SelectInput name="role" label="Rol" options={roles} />
            <Button type="submit" className="sm:mt-7">Invitar</Button>
          </BackofficeForm>
          <FormErrorList reply={reply?.target === "invite" ? reply : null} target="invite" />
        </Card>

        <Card title="Personas">
          <ul className="flex flex-col divide-y divide-[var(--border)]" data-testid="team-members">
            {members.map((m) => (
              <li key={m.userId} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="font-bold">{m.name}{m.userId === me ? " (vos)" : ""}</p>
                  <p className="break-all text-sm text-[var(--muted)]">{m.email} · desde el {m.since}</p>
                </div>
                {m.userId === me ? (
                  <p className="text-sm font-bold">{roleLabels[m.role]}</p>
                ) : !roles.some((r) => r.value === m.role) ? (
                  // RRPP and their leads join and change through a promoter group (docs/team.md): their role as text,
                  // never a selector that would show (and could send) a role they do not have.
                  <div className="flex flex-wrap items-center gap-2">
                    <p className="text-sm">
                      <span className="font-bold" data-testid={`role-${m.userId}`}>{roleLabels[m.role]}</span> ·{" "}
                      <Link to={href(BO.promoterGroups)} className="text-[var(--accent)] hover:underline">se maneja en Grupos de RRPP</Link>
                    </p>
                    <Form noValidate method="post">
                      <input type="hidden" name="intent" value="remove" />
                      <input type="hidden" name="userId" value={m.userId} />
                      <Button type="submit" variant="ghost" aria-label={`Quitar a ${m.name} del equipo`}>Quitar</Button>
                    </Form>
                  </div>
                ) : (
                  <div className="flex flex-wrap items-center gap-2">
                    <Form noValidate method="post" className="flex items-center gap-2">
                      <input type="hidden" name="intent" value="role" />
                      <input type="hidden" name="userId" value={m.userId} />
                      <label htmlFor={`role-${m.userId}`} className="sr-only">Rol de {m.name}</label>
                      <select id={`role-${m.userId}`} name="role" defaultValue={m.role} className="rounded-lg border border-[var(--border)] bg-[var(--bg)] px-2 py-2 text-[var(--text)]">
                        {roles.map((r) => (
                          <option key={r.value} value={r.value}>{r.label}</option>
                        ))}
                      </select>
                      <Button type="submit" variant="secondary" aria-label={`Cambiar el rol de ${m.name}`}>Cambiar</Button>
                    </Form>
                    <Form noValidate method="post">
                      <input type="hidden" name="intent" value="remove" />
                      <input type="hidden" name="userId" value={m.userId} />
                      <Button type="submit" variant="ghost" aria-label={`Quitar a ${m.name} del equipo`}>Quitar</Button>
                    </Form>
                  </div>
                )}
              </li>
            ))}
          </ul>
        </Card>

        {invitations.length ? (
          <Card title="Invitaciones pendientes">
            <ul className="flex flex-col divide-y divide-[var(--border)]">
              {invitations.map((i) => (
                <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                  <p className="min-w-0 break-all">
                    <span className="font-bold">{i.email}</span> · {i.roleLabel} · vence el {i.expiresAt}
                  </p>
                  <Form noValidate method="post">
                    <input type="hidden" name="intent" value="revoke" />
                    <input type="hidden" name="invitationId" value={i.id} />
                    <Button type="submit" variant="ghost" aria-label={`Anular la invitación a ${i.email}`}>Anular</Button>
                  </Form>
                </li>
              ))}
            </ul>
          </Card>
        ) : null}

        <Card title="Qué puede hacer cada rol">
          <ScrollTable label="Qué puede hacer cada rol" surface framed={false}>
            <table className="w-full min-w-[32rem] text-sm">
              <thead>
                <tr className="text-left">
                  <th scope="col" className="py-2 font-bold">Puede…</th>
                  {roles.map((r) => (
                    <th key={r.value} scope="col" className="px-2 py-2 text-center font-bold">{r.label}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.map((row) => (
                  <tr key={row.capability} className="border-t border-[var(--border)]">
                    <th scope="row" className="py-2 text-left font-normal">{row.label}</th>
                    {roles.map((r) => (
                      <td key={r.value} className="px-2 py-2 text-center">
                        {row.roles[r.value] ? <span aria-label="Sí">✓</span> : <span aria-label="No" className="text-[var(--muted)]">—</span>}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
          <p className="mt-3 text-sm text-[var(--muted)]">Los admins suman y quitan operadores, staff y marketing; solo un dueño suma o quita dueños y admins. La organización siempre tiene al menos un dueño. Los RRPP se suman desde Grupos de RRPP.</p>
        </Card>
      </div>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
