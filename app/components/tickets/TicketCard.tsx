import { productUnit, type ProductKind } from "#common/order-words";
import { Badge, type BadgeTone } from "#app/components/ui/Badge";
import { LiveQr, type LiveQrData } from "./LiveQr";

/** What a ticket page hands its cards: strings only (dates already formatted, the QR as SVG markup). */
export interface TicketCardData {
  id: string;
  status: "redeemable" | "redeemed" | "voided";
  statusLabel: string;
  holderName: string;
  /** "DNI 30.123.456" on a named ticket (decision 202): the door asks for it. */
  holderDocument?: string | null;
  /** Reserved seating: "Platea · Fila F · Asiento 12" (common/seating.ts seatLabel); null for general admission. */
  seat?: string | null;
  ticketTypeName: string;
  /** An entrada (the door) or a consumición (the bar): the card's words follow it. */
  kind?: ProductKind;
  orderCode: string;
  eventName: string;
  when: string;
  venue: string;
  /** Inline SVG (server-rendered); null for voided tickets, which must not be shown at the door. */
  qrSvg: string | null;
  /** The short code under the QR, for the door to type when the QR will not scan. */
  doorCode?: string | null;
  /** Sent to another person (the buyer's view): "Enviada a …", no QR. */
  transferredTo?: string | null;
  /** 1-based position and count, for "Entrada 1 de 3". */
  position?: { index: number; count: number };
  /** The event's live QR is on (decision 207): the code that changes every 15 seconds replaces the static one where JavaScript runs. */
  live?: LiveQrData | null;
}

const TONE: Record<TicketCardData["status"], BadgeTone> = { redeemable: "success", redeemed: "neutral", voided: "danger" };

/** Full screen without JavaScript: the view is a `:target` (the link's hash opens it, "Cerrar" goes back to the card). */
const FULL_SCREEN_CSS = `.qr-full{display:none}.qr-full:target{display:flex}`;

export function TicketFullScreenStyles() {
  return <style dangerouslySetInnerHTML={{ __html: FULL_SCREEN_CSS }} />;
}

export function TicketCard({ ticket, headingLevel = 3 }: { ticket: TicketCardData; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const voided = ticket.status === "voided";
  return (
    <article id={`ticket-${ticket.id}`} data-testid="ticket" className="flex flex-col gap-4 rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4 sm:flex-row">
      <div className="flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <Heading className="text-lg font-bold">{ticket.eventName}</Heading>
          <Badge tone={ticket.transferredTo && !voided ? "neutral" : TONE[ticket.status]}>{ticket.statusLabel}</Badge>
        </div>
        <p className="mt-1 text-sm">{ticket.when}</p>
        <p className="text-sm text-[var(--muted)]">{ticket.venue}</p>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-[var(--muted)]">{productUnit(ticket.kind ?? "ticket")}</dt>
          <dd>
            {ticket.ticketTypeName}
            {ticket.position ? ` · ${ticket.position.index} de ${ticket.position.count}` : ""}
          </dd>
          {ticket.seat ? (
            <>
              <dt className="text-[var(--muted)]">Ubicación</dt>
              <dd className="font-semibold">{ticket.seat}</dd>
            </>
          ) : null}
          <dt className="text-[var(--muted)]">Titular</dt>
          <dd>{ticket.holderName}</dd>
          {ticket.holderDocument ? (
            <>
              <dt className="text-[var(--muted)]">Documento</dt>
              <dd>{ticket.holderDocument}</dd>
            </>
          ) : null}
          <dt className="text-[var(--muted)]">Compra</dt>
          <dd className="tabular-nums">{ticket.orderCode}</dd>
        </dl>
      </div>
      {ticket.qrSvg && !voided ? (
        <a
          href={`#qr-${ticket.id}`}
          className="relative block w-40 self-center rounded-xl bg-white p-2 sm:self-start"
        >
          {/* The name starts with what it does and keeps the visible text (WCAG 2.5.3). */}
          <span className="sr-only">Ver en pantalla completa el QR de {ticket.holderName}. </span>
          {ticket.live ? <LiveQr live={ticket.live} staticSvg={ticket.qrSvg} size="card" /> : <span className="block" aria-hidden="true" dangerouslySetInnerHTML={{ __html: ticket.qrSvg }} />}
          {ticket.doorCode && !ticket.live ? <span className="mt-1 block text-center font-mono text-xs font-bold tracking-wider text-neutral-900" aria-label={`Código: ${ticket.doorCode}`}>{ticket.doorCode}</span> : null}
          <span className="mt-1 block text-center text-xs font-medium text-neutral-900">Tocá para agrandar</span>
        </a>
      ) : (
        <p className="self-center text-sm text-[var(--muted)]">{voided ? (ticket.kind === "menu" ? "Esta consumición fue anulada: ya no se puede retirar en la barra." : "Esta entrada fue anulada: no sirve para entrar.") : ticket.transferredTo ? `Se la enviaste a ${ticket.transferredTo}: ya no sirve con tu QR.` : null}</p>
      )}
      {ticket.qrSvg && !voided ? (
        <div
          id={`qr-${ticket.id}`}
          role="dialog"
          aria-modal="true"
          aria-label={`QR de ${ticket.holderName}`}
          data-testid="qr-full"
          className="qr-full fixed inset-0 z-50 flex-col items-center gap-3 overflow-auto bg-white p-4 text-neutral-900"
          style={{ justifyContent: "safe center" }}
        >
          <p className="text-center text-lg font-bold">{ticket.eventName}</p>
          {ticket.live ? (
            <span className="block w-full max-w-[min(92vw,64vh)] shrink-0">
              <LiveQr live={ticket.live} staticSvg={ticket.qrSvg} size="full" />
            </span>
          ) : (
            <span className="block w-full max-w-[min(92vw,64vh)] shrink-0" dangerouslySetInnerHTML={{ __html: ticket.qrSvg }} />
          )}
          {ticket.doorCode && !ticket.live ? <p className="font-mono text-xl font-bold tracking-widest">{ticket.doorCode}</p> : null}
          <p className="text-center">
            <strong>{ticket.holderName}</strong> · {ticket.ticketTypeName}
            <br />
            {ticket.seat ? (
              <>
                <strong>{ticket.seat}</strong>
                <br />
              </>
            ) : null}
            <span className="text-sm">
              {ticket.when} · {ticket.statusLabel}
            </span>
          </p>
          <a href={`#ticket-${ticket.id}`} className="rounded-lg border border-neutral-300 px-6 py-3 font-semibold text-neutral-900">
            Cerrar
          </a>
        </div>
      ) : null}
    </article>
  );
}
