/** What `/fila/{slug}` renders: the loader's answer, plain data (dates as ISO text plus their Buenos Aires labels). */
export type QueuePhase =
  /** Not opened yet: the countdown, and joining puts you in the draw. */
  | "before"
  /** Open: admitting people. */
  | "open"
  /** Open, but the organizer paused admissions for a moment. */
  | "paused"
  /** Nothing left to sell. */
  | "soldOut"
  /** The queue is off or over. */
  | "closed";

export type QueuePlaceStatus = "WAITING" | "ADMITTED" | "SOLD_OUT" | "CLOSED";

export interface QueuePageData {
  event: { name: string; slug: string };
  signedIn: boolean;
  phase: QueuePhase;
  opensAtIso: string;
  /** "Sábado 28 de noviembre de 2026 · 15:00 h". */
  opensAtLabel: string;
  place: {
    /** The place's id: with the revealed seed, its draw key (docs/queue.md). */
    id: string;
    status: QueuePlaceStatus;
    /** Why a CLOSED place is closed: bought, the turn ran out, or the queue was turned off. */
    closedReason: "BOUGHT" | "EXPIRED" | "QUEUE_OFF" | null;
    /** 1 is next; null before the draw. */
    position: number | null;
    ahead: number | null;
    estimatedWaitSeconds: number | null;
    admissionExpiresAtIso: string | null;
    /** "15:10". */
    admissionExpiresLabel: string | null;
  } | null;
  drawCommitment: string | null;
  drawSeed: string | null;
  /** Seconds until the page should ask again (meta refresh without JavaScript, polling with it); null: nothing will change. */
  refreshSeconds: number | null;
  /**
   * Where the page goes when it refreshes itself without JavaScript: the light page `/fila/{slug}/ahora` (served
   * without Remix, decision 241) for a person with a place; null: this page again (nobody to show a place to).
   */
  refreshHref: string | null;
  /** When the server answered, to say "actualizado hace X s". */
  renderedAtIso: string;
  buyHref: string;
}
