/**
 * The queue page's words and small sums, shared by the server render and the
 * browser island (no Luxon, no server code: they go to the buyer's phone).
 */

/** "2 h 14 min", "14:05", "0:42": what is left until `targetMs`, never negative. */
export function clockLeft(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * An estimate a person can trust: rounded up to the minute, said as a range
 * above ten minutes, and "menos de un minuto" at the end. Null when there is
 * no pace yet to estimate from (said as such, never a made-up number).
 */
export function waitLabel(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "Todavía no podemos estimarla: lo sabremos cuando empiecen a entrar las primeras personas.";
  if (seconds < 60) return "menos de un minuto";
  const minutes = Math.ceil(seconds / 60);
  if (minutes === 1) return "alrededor de un minuto";
  if (minutes <= 10) return `alrededor de ${minutes} minutos`;
  if (minutes < 90) {
    const low = Math.floor(minutes / 5) * 5;
    return `entre ${low} y ${low + 10} minutos`;
  }
  const hours = Math.round(minutes / 30) / 2;
  return `alrededor de ${String(hours).replace(".", ",")} horas`;
}

/** "1 persona", "12.345 personas". */
export function peopleLabel(count: number): string {
  return `${count.toLocaleString("es-AR")} ${count === 1 ? "persona" : "personas"}`;
}

/** "hace 3 s", "hace 1 min": how old what the page shows is. */
export function agoLabel(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `hace ${s} s`;
  return `hace ${Math.floor(s / 60)} min`;
}
