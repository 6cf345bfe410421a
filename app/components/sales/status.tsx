import { LEDGER_KIND_NAMES } from "#common/ledger";
import { Badge, type BadgeTone } from "#app/components/ui/Badge";

/** Display statuses (server/orders/status.ts) in Spanish, for the organizer's sales pages. */
const DISPLAY: Record<string, { label: string; tone: BadgeTone }> = {
  pending: { label: "Pendiente", tone: "warning" },
  approved: { label: "Aprobada", tone: "success" },
  cancelled: { label: "Cancelada", tone: "neutral" },
  expired: { label: "Vencida", tone: "neutral" },
  refunded: { label: "Devuelta", tone: "secondary" },
  orphan: { label: "Huérfana", tone: "warning" },
  charged_back: { label: "Contracargo", tone: "danger" },
};

export function DisplayStatusBadge({ status }: { status: string | null }) {
  const entry = status ? DISPLAY[status] : null;
  if (!entry) return <Badge>—</Badge>;
  return (
    <Badge tone={entry.tone} title={status ?? undefined}>
      <span data-status={status}>{entry.label}</span>
    </Badge>
  );
}

export const PAYMENT_METHOD_LABEL: Record<string, string> = {
  MERCADO_PAGO: "Mercado Pago",
  BANK_TRANSFER: "Transferencia",
  FREE: "Sin cargo",
  PROMOTER: "En mano (RRPP)",
};

export const TICKET_STATUS_LABEL: Record<string, string> = { redeemable: "Válida", redeemed: "Usada", voided: "Anulada" };

export const LEDGER_KIND_LABEL: Record<string, string> = LEDGER_KIND_NAMES;

export const REFUND_STATUS_LABEL: Record<string, string> = { pending: "Pendiente", refunded: "Devuelta", rejected: "Rechazada" };
