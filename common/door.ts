import { formatDateTime, formatTime } from "./dates";
import { DOCUMENT_TYPES } from "./fields";

/**
 * A holder's document as staff read it at the door, on the PDF and in the email: "DNI 30.123.456",
 * "Pasaporte AB123456" (decision 202). Null when the ticket carries none.
 */
export function holderDocumentLabel(type: string | null | undefined, number: string | null | undefined): string | null {
  const value = number?.trim();
  if (!value) return null;
  const kind = DOCUMENT_TYPES.find((d) => d.value === type)?.label ?? "Documento";
  // Argentine DNI numbers are read with dots ("30.123.456"); other documents as typed.
  const shown = (kind === "DNI" || kind === "CDI") && /^\d{7,8}$/.test(value) ? value.replace(/\B(?=(\d{3})+$)/g, ".") : value;
  return `${kind} ${shown}`;
}

/**
 * What a door answers for one scan (docs/door.md). The server and the door
 * screen judging offline both speak it, so the words a doorperson reads are
 * the same either way.
 */
export type DoorOutcome = "admitted" | "already_in" | "conflict" | "voided" | "other_event" | "other_date" | "wrong_place" | "expired_code" | "unknown";

/**
 * What the door says of a live code more than one step off, or of a live-QR ticket's static code
 * before it counts (docs/door.md, decision 208): a screenshot, an old photo or a forwarded PDF.
 */
export const EXPIRED_CODE_DETAIL = "Captura de pantalla o código vencido: pedile que abra la entrada";

export interface DoorVerdict {
  outcome: DoorOutcome;
  /** Holder, ticket type and the date the ticket is for, when the code is a ticket of this event. */
  holderName?: string | null;
  /** The holder's document ("DNI 30.123.456") when the ticket is named (decision 202): staff ask for ID against it. */
  holderDocument?: string | null;
  ticketTypeName?: string | null;
  /** Reserved seating (docs/seating.md): "Platea · Fila F · Asiento 12", so staff send the person to it; null for general admission. */
  seatLabel?: string | null;
  eventDateStartsAt?: string | null;
  /** For already_in and conflict: when and where it got in first. */
  redeemedAt?: string | null;
  redeemedDoor?: string | null;
  /** For other_event: which one. */
  otherEventName?: string | null;
  /** What the code is: a ticket (the door) or a menu item (the bar); wrong_place says which. */
  productKind?: "ticket" | "menu" | null;
}

/** The big line on the door screen. */
export function verdictTitle(verdict: DoorVerdict): string {
  switch (verdict.outcome) {
    case "admitted":
      return verdict.productKind === "menu" ? "Entregala" : "Adelante";
    case "already_in":
      return verdict.productKind === "menu" ? "Ya se canjeó" : "Ya ingresó";
    case "conflict":
      return "Ingresó dos veces";
    case "voided":
      return "Entrada anulada";
    case "other_event":
      return "Es de otro evento";
    case "other_date":
      return "Es de otra fecha";
    case "wrong_place":
      return verdict.productKind === "menu" ? "Es una consumición" : "Es una entrada";
    case "expired_code":
      return "Código vencido";
    case "unknown":
      return "Código no válido";
  }
}

/** The sentence under it: why, in words a doorperson can repeat to the person in front. */
export function verdictDetail(verdict: DoorVerdict, now: Date = new Date()): string {
  switch (verdict.outcome) {
    case "admitted":
      // At the bar, what to serve comes first.
      return (verdict.productKind === "menu" ? [verdict.ticketTypeName, verdict.holderName] : [verdict.holderName, verdict.holderDocument, verdict.ticketTypeName]).filter(Boolean).join(" · ");
    case "already_in":
    case "conflict": {
      const where = verdict.redeemedDoor ? ` por ${verdict.redeemedDoor}` : "";
      const when = verdict.redeemedAt ? whenLabel(new Date(verdict.redeemedAt), now) : "";
      // Who (or, at the bar, what) it was, so the doorperson can tell the person in front it is not theirs (decision 160).
      const menu = verdict.productKind === "menu";
      const whose = (menu ? [verdict.ticketTypeName, verdict.holderName && `de ${verdict.holderName}`] : [verdict.holderName, verdict.holderDocument && `(${verdict.holderDocument})`]).filter(Boolean).join(" ");
      const first = `${menu ? `Ya se canjeó${when}${where.replace(" por ", " en ")}` : `Ya ingresó${when}${where}`}${whose ? `: ${whose}` : ""}.`;
      return verdict.outcome === "conflict" ? `${first} Dos puertas la aceptaron sin conexión: avisale a quien coordina.` : first;
    }
    case "voided":
      return "La entrada fue anulada o reembolsada: no puede ingresar con ella.";
    case "other_event":
      return verdict.otherEventName ? `Es una entrada para ${verdict.otherEventName}.` : "Es una entrada para otro evento.";
    case "other_date":
      return verdict.eventDateStartsAt ? `Es una entrada para el ${formatDateTime(verdict.eventDateStartsAt)}.` : "Es una entrada para otra fecha.";
    case "wrong_place":
      return verdict.productKind === "menu" ? "Se canjea en la barra, no en la puerta." : "Se valida en la puerta, no en la barra.";
    case "expired_code":
      return EXPIRED_CODE_DETAIL;
    case "unknown":
      return "No es una entrada de Tribuna o el código está mal copiado. Pedile que muestre el QR de nuevo.";
  }
}

/** One line of the live view's latest scans: what was redeemed, and whose. */
export interface LiveScanView {
  outcome: DoorOutcome;
  productKind?: "ticket" | "menu" | null;
  holderName?: string | null;
  ticketTypeName?: string | null;
}

/**
 * What the live view says of one scan (decision 160): "Ingresó · Ana Peña", "Ya ingresó · Ana Peña",
 * "Entregada · Fernet con coca · Ana Peña", "Ya se entregó · Fernet con coca"; other refusals by their
 * door title and the holder.
 */
export function liveScanLine(scan: LiveScanView): string {
  const menu = scan.productKind === "menu";
  const parts =
    scan.outcome === "admitted"
      ? menu
        ? ["Entregada", scan.ticketTypeName, scan.holderName]
        : ["Ingresó", scan.holderName]
      : scan.outcome === "already_in"
        ? menu
          ? ["Ya se entregó", scan.ticketTypeName]
          : ["Ya ingresó", scan.holderName]
        : [verdictTitle({ outcome: scan.outcome, productKind: scan.productKind }), menu ? scan.ticketTypeName : null, scan.holderName];
  return parts.filter(Boolean).join(" · ");
}

/**
 * The name a redemption is recorded under. At the bar the place is "Barra" unless the name typed says
 * which bar ("Barra VIP"): the phone's saved name is usually its door's, and the bar is not a door.
 */
export function placeName(value: string | null | undefined, mode: "door" | "bar" | null | undefined): string {
  if (mode !== "bar") return normalizeDoorName(value);
  const name = normalizeDoorName(value);
  return /barra/i.test(name) ? name : "Barra";
}

/** " a las 22:14" the same night; " el 12/12/2026 a las 22:14" if it was another day. */
function whenLabel(at: Date, now: Date): string {
  const sameNight = Math.abs(now.getTime() - at.getTime()) < 18 * 3600 * 1000;
  if (sameNight) return ` a las ${formatTime(at)}`;
  const [time, day] = formatDateTime(at).split(" - ");
  return ` el ${day} a las ${time}`;
}

/** A door's name as staff type it ("Puerta 1"): trimmed, one line, short. */
export function normalizeDoorName(value: string | null | undefined): string {
  const name = (value ?? "").replace(/\s+/g, " ").trim().slice(0, 40);
  return name || "Puerta principal";
}

/** Characters of a ticket's code that the door accepts typed by hand, case-insensitive. */
export const SHORT_CODE_LENGTH = 10;

/** What a ticket shows under its QR for typing at the door: "ABCDE FGHIJ". */
export function shortTicketCode(code: string): string {
  const head = code.slice(0, SHORT_CODE_LENGTH).toUpperCase();
  return `${head.slice(0, 5)} ${head.slice(5)}`;
}

/**
 * A typed short code in its one canonical form (docs/door.md): spaces, dots,
 * dashes and underscores out, upper case, and the characters people mix up
 * read as one: O as 0, I and L as 1. The server (online redeem, the manifest
 * it signs) and the door phone (before hashing) all compare this form.
 */
export function canonicalShortCode(value: string): string {
  return value
    .toUpperCase()
    .replace(/[\s._-]+/g, "")
    .replace(/O/g, "0")
    .replace(/[IL]/g, "1");
}

/** A typed short code in canonical form (see canonicalShortCode), or null when it is not one. */
export function parseShortTicketCode(value: string): string | null {
  if (value.replace(/[\s._-]+/g, "").length > SHORT_CODE_LENGTH) return null;
  const canonical = canonicalShortCode(value);
  return /^[A-Z0-9]{6,}$/.test(canonical) && canonical.length <= SHORT_CODE_LENGTH ? canonical : null;
}

/** The same canonical form in SQL: translate(upper(…), FROM, TO) drops the separators a stored code may hold. */
export const SHORT_CODE_SQL_FROM = "OIL_-";
export const SHORT_CODE_SQL_TO = "011";
