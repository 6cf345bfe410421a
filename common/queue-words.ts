/**
 * The virtual queue's words and small sums (docs/queue.md), shared by the two
 * renders of a waiting person's page: the Remix page `/fila/{slug}`
 * (app/components/queue/QueuePage.tsx, server render and browser island) and
 * the light page `/fila/{slug}/ahora` that server.ts serves without Remix for
 * browsers without JavaScript (server/queue/light-page.ts, decision 241).
 * No Luxon, no server code: they go to the buyer's phone.
 */

export type QueuePhaseName = "before" | "open" | "paused" | "soldOut" | "closed";
export type QueuePlaceStatusName = "WAITING" | "ADMITTED" | "SOLD_OUT" | "CLOSED";
export type QueueClosedReason = "BOUGHT" | "EXPIRED" | "QUEUE_OFF" | null;

/** What a person is looking at: which of the page's states (one decision for both renders). */
export type QueueStateKind = "admitted" | "soldOut" | "bought" | "expired" | "closed" | "before" | "notJoined" | "waiting";

export function queueStateKind(phase: QueuePhaseName, place: { status: QueuePlaceStatusName; closedReason: QueueClosedReason } | null): QueueStateKind {
  if (place?.status === "ADMITTED") return "admitted";
  if (place?.status === "SOLD_OUT" || phase === "soldOut") return "soldOut";
  if (place?.closedReason === "BOUGHT") return "bought";
  if (place?.closedReason === "EXPIRED" && phase !== "closed") return "expired";
  if (place?.status === "CLOSED" || phase === "closed") return "closed";
  if (phase === "before") return "before";
  if (!place) return "notJoined";
  return "waiting";
}

/** A name for tests, styles and the benchmark (`data-queue-state`): the place's status, or the queue's phase without one. */
export function queueStateName(phase: QueuePhaseName, place: { status: QueuePlaceStatusName } | null): string {
  if (place) return place.status.toLowerCase();
  return phase === "before" ? "countdown" : phase === "soldOut" ? "sold_out" : phase === "closed" ? "closed" : "not_joined";
}

/** The sentences of each state. Where a sentence wraps a figure, its two halves. */
export const QUEUE_WORDS = {
  kicker: "Fila virtual",
  turn: {
    heading: "¡Es tu turno!",
    untilBefore: "Tenés hasta las",
    untilAfter: "para comprar",
    leftBefore: "te quedan",
    rest: ". Si no comprás en ese tiempo, el lugar pasa a la persona que sigue.",
    buy: "Ir a comprar",
  },
  soldOut: {
    heading: "Agotado",
    text: "Se vendieron todas las entradas que había. Te lo decimos ahora para que no esperes de más. Si alguien no completa su pago y vuelven entradas a la venta, la fila sigue y te avisamos en esta página.",
  },
  bought: { heading: "Ya hiciste tu compra", text: "Tu turno en la fila terminó. Tus entradas están en Mis tickets.", link: "Ver mis tickets" },
  expired: { heading: "Tu turno venció", text: "Pasó el tiempo para comprar sin que se completara una compra, y el lugar pasó a la persona que seguía en la fila." },
  closed: { heading: "La fila está cerrada", text: "Ya no hace falta hacer fila para este evento: podés comprar directamente en su página.", link: "Ir al evento" },
  before: {
    heading: "La venta abre en",
    soon: "instantes",
    timeZone: "(hora de Buenos Aires).",
    inQueue:
      "Ya estás en la fila. Cuando abra la venta sorteamos el orden entre todas las personas que se sumaron antes: llegar primero no cambia nada, así que no hace falta estar pendiente del segundo exacto.",
    joinFirst: "Sumate antes de que abra: a la hora de apertura sorteamos el orden entre todas las personas que estén en la fila.",
  },
  notJoined: { heading: "La venta ya abrió", text: "Sumate a la fila: vas detrás de las personas que ya están, por orden de llegada." },
  join: { label: "Sumarme a la fila", pending: "Sumándote…", signIn: "Necesitás iniciar sesión: un lugar por cuenta, sin importar desde cuántos dispositivos entres." },
  waiting: {
    heading: "Estás en la fila",
    pausedHeading: "El ingreso está en pausa",
    paused: "La organización pausó el ingreso por un momento. No perdés tu lugar.",
    position: "Tu lugar",
    ahead: "Delante tuyo",
    estimate: "Espera estimada:",
    estimateNote: "Es una estimación según el ritmo con que entra la gente; puede cambiar si alguien no usa su turno.",
  },
  keepPlace: "Si la cerrás no perdés tu lugar.",
  proof: {
    summary: "¿Cómo sabés que el sorteo es justo?",
    text: "Antes de abrir publicamos la huella (SHA-256) de una semilla secreta; al abrir revelamos la semilla y el orden de quienes se sumaron antes sale de ella: nadie, ni nosotros, puede cambiarla después sin que se note.",
    commitment: "Huella publicada:",
    place: "Tu lugar en el sorteo:",
    seed: "Semilla revelada:",
    seedLater: "La semilla se revela cuando abre la venta.",
    howTo: "Cómo verificar el sorteo paso a paso",
  },
  /** The light page without JavaScript (decision 241). */
  light: { updatedAt: "Actualizado a las", fullPage: "Ver la página completa de la fila" },
} as const;

/** "se actualiza sola cada 5 s". */
export function refreshesEvery(seconds: number): string {
  return `se actualiza sola cada ${seconds} s`;
}

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

// Built once: `toLocaleString` builds a formatter on every call, and a crowd's refreshes call this thousands of times a second.
const NUMBER = new Intl.NumberFormat("es-AR");

/** "12.345": a place or a count, as es-AR writes it. */
export function queueNumber(count: number): string {
  return count >= 0 && count < 1000 ? String(count) : NUMBER.format(count);
}

/** "1 persona", "12.345 personas". */
export function peopleLabel(count: number): string {
  return `${queueNumber(count)} ${count === 1 ? "persona" : "personas"}`;
}

/** "hace 3 s", "hace 1 min": how old what the page shows is. */
export function agoLabel(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `hace ${s} s`;
  return `hace ${Math.floor(s / 60)} min`;
}
