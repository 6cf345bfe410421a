import { Badge } from "#app/components/ui/Badge";
import type { ScheduleReply } from "./types";

/**
 * What the last save of dates or ticket types did ("Fecha creada", "No había
 * cambios para guardar"), as the domain's change actions say it; announced
 * to screen readers, and there without JavaScript (it comes in the page the
 * form's POST answers).
 */
export function ScheduleReport({ reply }: { reply: ScheduleReply | undefined }) {
  if (!reply?.schedule) return null;
  return (
    <p role="status" data-schedule-report="" className="rounded-lg border border-primary-500/40 bg-primary-500/10 px-4 py-3 text-sm font-medium">
      {reply.schedule.message}
    </p>
  );
}

/** "Nueva" / "Modificada" next to a row the last save made or changed. */
export function ChangeBadge({ reply, id }: { reply: ScheduleReply | undefined; id: string }) {
  const label = reply?.schedule?.badges[id];
  return label ? <Badge tone="primary">{label}</Badge> : null;
}
