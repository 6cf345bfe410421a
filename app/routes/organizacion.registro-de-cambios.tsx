import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatDateTime } from "#common/dates";
import { formatMoney } from "#common/money";
import { scheduleReportFromCounts, type ChangeCounts } from "#common/schedule";
import { listOrganizationAudit } from "#server/organizations/audit";
import { guard, requireOrganization } from "#app/lib/backoffice.server";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, EmptyState } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import { Pager } from "#app/components/ui/Pager";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Registro de cambios · Tribuna" }];

const PAGE_SIZE = 50;

const STATUS_WORDS: Record<string, string> = { active: "activo", paused: "pausado", deleted: "eliminado" };

const isCounts = (value: unknown): value is ChangeCounts => Boolean(value) && typeof value === "object" && !Array.isArray(value);

/** One line about what changed, from what the domain recorded (names, codes, amounts, before → after). */
function detailOf(entry: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of ["name", "code", "email"]) if (typeof entry[key] === "string") parts.push(entry[key] as string);
  const change = (value: unknown, money: boolean) => {
    if (value && typeof value === "object" && "from" in value && "to" in value) {
      const { from, to } = value as { from: unknown; to: unknown };
      if (from === to) return null;
      const show = (v: unknown) => (money && typeof v === "number" ? formatMoney(v) : String(v));
      return `${show(from)} → ${show(to)}`;
    }
    return null;
  };
  const price = typeof entry.price === "number" ? formatMoney(entry.price) : change(entry.price, true);
  if (price) parts.push(`precio ${price}`);
  // A new ticket type's stock; "Agregó entradas" says how many instead (+N).
  const stock = typeof entry.stock === "number" ? (typeof entry.quantity === "number" ? null : String(entry.stock)) : change(entry.stock, false);
  if (stock) parts.push(`stock ${stock}`);
  const url = typeof entry.url === "string" ? entry.url : change(entry.url, false);
  if (url) parts.push(url);
  if (typeof entry.bankName === "string" && typeof entry.cbuEnd === "string") parts.push(`${entry.bankName} terminada en ${entry.cbuEnd}`);
  if (Array.isArray(entry.fields) && entry.fields.length) parts.push(`campos: ${entry.fields.join(", ")}`);
  if (typeof entry.count === "number") parts.push(entry.count === 1 ? "1 envío" : `${entry.count} envíos`);
  if (typeof entry.from === "string" && typeof entry.to === "string") parts.push(`${STATUS_WORDS[entry.from] ?? entry.from} → ${STATUS_WORDS[entry.to] ?? entry.to}`);
  if (typeof entry.quantity === "number") parts.push(`+${entry.quantity}`);
  if (typeof entry.amount === "number") parts.push(formatMoney(entry.amount));
  if (typeof entry.reason === "string") parts.push(`motivo: ${entry.reason}`);
  if (typeof entry.transferReference === "string") parts.push(`referencia ${entry.transferReference}`);
  // A save of dates and ticket types (server/events/schedule.ts): what it did, then each price and stock it moved.
  if (isCounts(entry.dates) && isCounts(entry.ticketTypes)) parts.push(scheduleReportFromCounts({ dates: entry.dates, ticketTypes: entry.ticketTypes }));
  if (Array.isArray(entry.repriced)) {
    for (const edit of entry.repriced as { ticketType?: unknown; price?: unknown; stock?: unknown }[]) {
      const moved = [change(edit.price, true), change(edit.stock, false)];
      const said = [moved[0] ? `precio ${moved[0]}` : null, moved[1] ? `stock ${moved[1]}` : null].filter(Boolean).join(", ");
      if (typeof edit.ticketType === "string" && said) parts.push(`${edit.ticketType}: ${said}`);
    }
  }
  return parts.join(" · ");
}

/** `/organizacion/registro-de-cambios`: who changed what in the organization, newest first. Owners only (audit:read). */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "audit:read");
  const page = Math.max(0, Math.min(10_000, Number.parseInt(new URL(request.url).searchParams.get("pagina") ?? "1", 10) - 1 || 0));
  const list = await guard(() => listOrganizationAudit(bo.ctx, { organizationId: bo.organization.id, page, limit: PAGE_SIZE }));
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      page: list.page,
      pages: Math.max(1, Math.ceil(list.total / PAGE_SIZE)),
      items: list.items.map((e) => ({ id: e.id, label: e.label, actor: e.actor, detail: detailOf(e.data), createdAt: formatDateTime(e.createdAt) })),
    },
    { headers: bo.headers },
  );
}

export default function AuditPage() {
  const { items, page, pages } = useLoaderData<typeof loader>();
  const href = useBackofficeHref();
  return (
    <BackofficePage title="Registro de cambios" lead="Quién cambió qué en la organización: eventos, precios y stock, cupones, equipo, extracciones, devoluciones, la puerta y los RRPP. Solo lo ven los dueños.">
      {items.length === 0 ? (
        <EmptyState>Todavía no hay cambios registrados.</EmptyState>
      ) : (
        <ol className="flex flex-col divide-y divide-[var(--border)] rounded-2xl border border-[var(--border)] bg-[var(--surface)]">
          {items.map((e) => (
            <li key={e.id} className="p-4">
              <p className="font-bold">{e.label}</p>
              {e.detail ? <p className="break-words text-sm">{e.detail}</p> : null}
              <p className="text-sm text-[var(--muted)]">
                {e.actor} · {e.createdAt}
              </p>
            </li>
          ))}
        </ol>
      )}
      <Pager page={page + 1} pages={pages} href={(n) => href(BO.audit, {}, { pagina: String(n) })} />
    </BackofficePage>
  );
}
