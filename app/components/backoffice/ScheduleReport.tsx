import { Badge } from "#app/components/ui/Badge";

/** What the page's loader read from the last save's report (app/lib/schedule.server.ts). */
export type ScheduleReportView = { message: string; badges: Record<string, string> };

/**
 * What the last save of dates or ticket types did ("Fecha creada", "No había
 * cambios para guardar"), as the domain's change actions say it; announced
 * to screen readers, and there without JavaScript (the save comes back to
 * the page, which reads the report once).
 */
export function ScheduleReport({ schedule }: { schedule: ScheduleReportView | null }) {
  if (!schedule) return null;
  return (
    <p role="status" data-schedule-report="" className="rounded-lg border border-primary-500/40 bg-primary-500/10 px-4 py-3 text-sm font-medium">
      {schedule.message}
    </p>
  );
}

/** "Nueva" / "Modificada" next to a row the last save made or changed. */
export function ChangeBadge({ schedule, id }: { schedule: ScheduleReportView | null; id: string }) {
  const label = schedule?.badges[id];
  return label ? <Badge tone="primary">{label}</Badge> : null;
}
