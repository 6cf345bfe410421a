import { Badge, type BadgeTone } from "#app/components/ui/Badge";

export type EventDisplayStatus = "draft" | "active" | "paused" | "deleted";

export const EVENT_STATUS_LABELS: Record<EventDisplayStatus, string> = {
  draft: "Borrador",
  active: "Activo",
  paused: "Pausado",
  deleted: "Eliminado",
};

const TONES: Record<EventDisplayStatus, BadgeTone> = { draft: "neutral", active: "success", paused: "warning", deleted: "danger" };

/** A never-published event is a draft (Borrador) unless deleted. */
export function eventDisplayStatus(event: { status: string; publishedAt: string | Date | null }): EventDisplayStatus {
  if (event.status === "deleted") return "deleted";
  if (!event.publishedAt) return "draft";
  return event.status === "paused" ? "paused" : "active";
}

export function EventStatusBadge({ event }: { event: { status: string; publishedAt: string | Date | null } }) {
  const status = eventDisplayStatus(event);
  return <Badge tone={TONES[status]}>{EVENT_STATUS_LABELS[status]}</Badge>;
}

/** Ticket types and dates: active, paused or deleted. */
export function StatusBadge({ status }: { status: string }) {
  if (status === "paused") return <Badge tone="warning">Pausado</Badge>;
  if (status === "deleted") return <Badge tone="danger">Eliminado</Badge>;
  return <Badge tone="success">Activo</Badge>;
}
