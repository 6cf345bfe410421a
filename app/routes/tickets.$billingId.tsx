import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { mailboxLink } from "#app/lib/dev-mailbox.server";
import { getRequestContext } from "#app/lib/session.server";
import { MailboxNotice } from "#app/components/account/MailboxNotice";
import { purchaseWords } from "#common/order-words";
import { purchaseKindOfOrders } from "#server/orders/purchase-kind";
import { getPurchaseTickets } from "#server/orders/purchase-tickets";
import { invoiceDownloadsOf } from "#server/orders/purchase-invoices";
import { purchaseAccessError } from "#app/components/tickets/access.server";
import { liveCardsOf, ticketCard, venueOf, whenOf } from "#app/components/tickets/cards.server";
import { TicketCard, TicketFullScreenStyles } from "#app/components/tickets/TicketCard";
import { useTicketsOffline } from "#app/components/tickets/useTicketsOffline";
import { buttonClasses } from "#app/components/ui/Button";
import { walletLinksFor } from "#server/wallet/buyer";
import { WalletButtons } from "#app/components/wallet-buttons";

/** While the payment is pending the page reloads itself (no JavaScript needed). */
const PENDING_REFRESH_SECONDS = 5;

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const tags: Record<string, string>[] = [
    { title: data?.state === "confirmed" ? `${purchaseWords(data.kind).yours} para ${data.event.name} · Tribuna` : "Tu compra · Tribuna" },
    { name: "robots", content: "noindex" },
  ];
  if (data?.state === "pending") tags.push({ httpEquiv: "refresh", content: String(PENDING_REFRESH_SECONDS) });
  return tags;
};

/**
 * `/tickets/{billingId}?t=…`: the purchase confirmation with every ticket and
 * its QR. For the buyer's account, the organization's members, or the link's
 * token (the checkout and the tickets email carry it).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  const token = new URL(request.url).searchParams.get("t");
  const purchase = await getPurchaseTickets(ctx, params.billingId ?? "", { token }).catch((error) => purchaseAccessError(request, error, headers));
  const count = purchase.tickets.length;
  // Live QR (decision 207): only once paid, for the tickets the door still admits.
  const live = purchase.state === "confirmed" ? await liveCardsOf(ctx.db, purchase.tickets.map((ticket) => ({ ticket, event: purchase.event }))) : new Map();
  const cards = await Promise.all(purchase.tickets.map((t, i) => ticketCard(t, purchase.event, purchase.orderCode, { index: i + 1, count }, live.get(t.id))));
  headers.set("Cache-Control", "private, no-cache");
  return data(
    {
      // Tickets, drinks or both: the page's words follow it (a cancelled purchase has no products, so ask the order).
      kind: await purchaseKindOfOrders(ctx.db, [purchase.orderId]),
      state: purchase.state,
      orderCode: purchase.orderCode,
      payerEmail: purchase.payerEmail,
      event: { name: purchase.event.name, slug: purchase.event.slug, when: whenOf(purchase.event), venue: venueOf(purchase.event) },
      cards,
      wallet: Object.fromEntries(purchase.tickets.map((t) => [t.id, purchase.state === "confirmed" ? walletLinksFor(purchase.pagePath, t) : null])),
      pagePath: purchase.pagePath,
      pdfPath: purchase.pdfPath,
      // Our invoice and credit note, once ARCA authorised them (docs/invoicing.md): plain links, no client code.
      invoices: await invoiceDownloadsOf(ctx.db, purchase),
      signedIn: ctx.actor.kind === "user",
      // No SMTP: the tickets email is only in the mailbox; say where (only to someone who may open it).
      mailbox: mailboxLink(request, { to: purchase.payerEmail }),
    },
    { headers },
  );
}

export default function PurchaseTicketsPage() {
  const page = useLoaderData<typeof loader>();
  useTicketsOffline();
  const words = purchaseWords(page.kind);
  const headline = {
    confirmed: "¡Listo! Tu compra está confirmada",
    pending: "Estamos esperando la confirmación del pago",
    voided: "Esta compra fue anulada",
    cancelled: "Esta compra no se completó",
  }[page.state];
  return (
    <main className="mx-auto w-full max-w-2xl px-4 py-10">
      <TicketFullScreenStyles />
      <h1 className="text-2xl font-bold">{headline}</h1>
      <p className="mt-1 text-sm text-[var(--muted)]">
        Compra <strong className="tabular-nums text-[var(--fg,inherit)]">{page.orderCode}</strong>
      </p>
      <section className="mt-4 rounded-2xl border border-[var(--border)] bg-[var(--surface)] p-4" aria-label="Evento">
        <p className="text-lg font-bold">{page.event.name}</p>
        <p className="text-sm">{page.event.when}</p>
        <p className="text-sm text-[var(--muted)]">{page.event.venue}</p>
      </section>

      {page.state === "pending" ? (
        <div className="mt-6 flex flex-col gap-3" role="status">
          <p>Apenas se acredite el pago te mandamos {words.the} a {page.payerEmail}. Esta página se actualiza sola.</p>
          <MailboxNotice href={page.mailbox} className="text-sm" />
          <a href={page.pagePath} className={buttonClasses("secondary", "self-start")}>
            Actualizar
          </a>
        </div>
      ) : null}

      {page.state === "cancelled" ? (
        <div className="mt-6 flex flex-col gap-3">
          <p>El pago no llegó a tiempo o fue cancelado, así que no se emitieron {words.plural}. Podés volver a intentarlo desde el evento.</p>
          <Link to={`/eventos/${page.event.slug}`} className={buttonClasses("primary", "self-start")}>
            Ver el evento
          </Link>
        </div>
      ) : null}

      {page.state === "voided" ? <p className="mt-6">Devolvimos el pago y {words.the} quedaron anuladas: {words.voidedUse}.</p> : null}

      {page.state === "confirmed" ? (
        <div className="mt-6 flex flex-col gap-2">
          <p>Te las mandamos también a {page.payerEmail}.</p>
          <MailboxNotice href={page.mailbox} className="text-sm" />
          <p className="text-sm text-[var(--muted)]">Mostrá el QR {words.showAt}. Tocalo para verlo en pantalla completa; una vez abierta, esta página funciona sin conexión.</p>
          <div className="flex flex-wrap gap-2">
            <a href={page.pdfPath} className={buttonClasses("primary")} download>
              Descargar PDF
            </a>
            {page.signedIn ? (
              <Link to="/cuenta/mis-tickets" className={buttonClasses("secondary")}>
                Mis tickets
              </Link>
            ) : null}
          </div>
        </div>
      ) : null}

      {page.invoices.length ? (
        <div className="mt-6 flex flex-wrap gap-2">
          {page.invoices.map((invoice) => (
            <a key={invoice.id} href={invoice.path} className={buttonClasses("secondary")} download>
              {invoice.label}
            </a>
          ))}
        </div>
      ) : null}

      {page.cards.length && page.state !== "pending" && page.state !== "cancelled" ? (
        <section className="mt-6 flex flex-col gap-4" aria-labelledby="tickets-title">
          <h2 id="tickets-title" className="text-xl font-bold">
            {words.yoursCount(page.cards.length)}
          </h2>
          {page.cards.map((card) => (
            <div key={card.id}>
              <TicketCard ticket={card} />
              <WalletButtons links={page.wallet[card.id]} label={`Billeteras para ${card.eventName}`} />
            </div>
          ))}
        </section>
      ) : null}
    </main>
  );
}
