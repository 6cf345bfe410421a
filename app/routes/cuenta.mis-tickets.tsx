import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "#app/lib/session.server";
import { withBillingToken } from "#server/auth/billing-access";
import { listMyTickets, type MyTicket } from "#server/tickets/tickets";
import { myInvoiceDownloads, type InvoiceDownload } from "#server/orders/purchase-invoices";
import { canTransfer } from "#server/tickets/transfer";
import { liveCardsOf, ticketCard } from "#app/components/tickets/cards.server";
import type { DbOrTx } from "#server/db/client";
import { TicketCard, TicketFullScreenStyles } from "#app/components/tickets/TicketCard";
import { useTicketsOffline } from "#app/components/tickets/useTicketsOffline";
import { buttonClasses } from "#app/components/ui/Button";
import { purchaseWords } from "#common/order-words";
import { walletLinksFor } from "#server/wallet/buyer";
import { WalletButtons } from "#app/components/wallet-buttons";

export const meta: MetaFunction = () => [{ title: "Mis tickets · Tribuna" }, { name: "robots", content: "noindex" }];

async function cardsOf(db: DbOrTx, tickets: MyTicket[], now: Date, withLive: boolean, invoices: Record<string, InvoiceDownload[]>) {
  // Live QR (decision 207) for upcoming tickets: past ones keep their static QR.
  const live = withLive ? await liveCardsOf(db, tickets.map((ticket) => ({ ticket, event: ticket.event }))) : new Map();
  return Promise.all(
    tickets.map(async (t) => ({
      ...(await ticketCard(t, t.event, t.orderCode, undefined, live.get(t.id))),
      purchasePath: t.billingId ? withBillingToken(`/tickets/${t.billingId}`, t.billingId) : null,
      transferPath: canTransfer(t, now) ? `/cuenta/mis-tickets/enviar/${t.id}` : null,
      // Resale hook (docs/resale.md): withdrawal or official resale, for the same tickets that can still be sent.
      cannotGoPath: canTransfer(t, now) && t.kind !== "menu" ? `/cuenta/mis-tickets/no-puedo-ir/${t.id}` : null,
      // Our invoice and credit note of the purchase, once authorised (docs/invoicing.md).
      invoices: t.billingId ? (invoices[t.billingId] ?? []) : [],
      wallet: walletLinksFor(t.billingId ? withBillingToken(`/tickets/${t.billingId}`, t.billingId) : null, t),
    })),
  );
}

/** `/cuenta/mis-tickets`: the signed-in person's tickets, upcoming and past, each with its QR (full screen, offline once opened). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  const { upcoming, past } = await listMyTickets(ctx);
  const invoices = await myInvoiceDownloads(ctx, [...upcoming, ...past].flatMap((t) => (t.billingId ? [t.billingId] : [])));
  headers.set("Cache-Control", "private, no-cache");
  return data({ upcoming: await cardsOf(ctx.db, upcoming, ctx.now, true, invoices), past: await cardsOf(ctx.db, past, ctx.now, false, invoices) }, { headers });
}

type Card = Awaited<ReturnType<typeof cardsOf>>[number];

function Group({ id, title, cards, empty }: { id: string; title: string; cards: Card[]; empty: string }) {
  return (
    <section className="mt-8" aria-labelledby={id}>
      <h2 id={id} className="text-xl font-bold">
        {title}
      </h2>
      {cards.length ? (
        <ul className="mt-3 flex flex-col gap-4">
          {cards.map((card) => (
            <li key={card.id}>
              <TicketCard ticket={card} />
              <WalletButtons links={card.wallet} label={`Billeteras para ${card.eventName}`} />
              <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm">
                {card.purchasePath ? (
                  <a href={card.purchasePath} className="inline-flex min-h-6 items-center text-[var(--accent)] hover:underline">
                    Ver la compra {card.orderCode}
                  </a>
                ) : null}
                {card.invoices.map((invoice) => (
                  <a key={invoice.id} href={invoice.path} download className="inline-flex min-h-6 items-center text-[var(--accent)] hover:underline">
                    {invoice.label}
                  </a>
                ))}
                {card.transferPath ? (
                  <Link to={card.transferPath} className="inline-flex min-h-6 items-center text-[var(--accent)] hover:underline">
                    Enviar a otra persona
                  </Link>
                ) : null}
                {card.cannotGoPath ? (
                  <Link to={card.cannotGoPath} className="inline-flex min-h-6 items-center text-[var(--accent)] hover:underline">
                    No puedo ir
                  </Link>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-[var(--muted)]">{empty}</p>
      )}
    </section>
  );
}

export default function MyTicketsPage() {
  const { upcoming, past } = useLoaderData<typeof loader>();
  useTicketsOffline();
  // Entradas, consumiciones or both, as the list holds (each card says which it is).
  const words = purchaseWords([...upcoming, ...past].map((card) => card.kind ?? "ticket"));
  return (
    <main className="mx-auto w-full max-w-2xl px-4 py-10">
      <TicketFullScreenStyles />
      <h1 className="text-2xl font-bold">Mis tickets</h1>
      <p className="mt-1 text-sm text-[var(--muted)]">Tocá un QR para verlo en pantalla completa. Una vez abierta, esta página funciona sin conexión.</p>
      <p className="mt-2 text-sm">
        <Link to="/cuenta/lista-de-espera" className="text-[var(--accent)] underline underline-offset-2">
          Mis listas de espera
        </Link>
      </p>
      {!upcoming.length && !past.length ? (
        <div className="mt-8 flex flex-col items-start gap-3">
          <p>Todavía no tenés entradas ni consumiciones. Cuando compres, aparecen acá.</p>
          <Link to="/" className={buttonClasses("primary")}>
            Ver eventos
          </Link>
        </div>
      ) : (
        <>
          <Group id="proximos" title="Próximos" cards={upcoming} empty={`No tenés ${words.plural} para eventos que vienen.`} />
          <Group id="pasados" title="Pasados" cards={past} empty="Todavía no fuiste a ningún evento con Tribuna." />
        </>
      )}
    </main>
  );
}
