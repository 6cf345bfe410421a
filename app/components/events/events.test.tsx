import { describe, expect, it } from "vitest";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import { EventGrid, type EventCardData } from "./EventCard";
import { EventPage, type EventPageData } from "./EventPage";

const card = (over: Partial<EventCardData> = {}): EventCardData => ({
  slug: "fiesta",
  name: "Fiesta",
  imageUrl: "/imagenes/fiesta.jpg",
  category: "fiestas",
  categoryLabel: "Fiestas",
  dateLabel: "23:00 - 03/12/2026",
  dateTime: "2026-12-04T02:00:00.000Z",
  venueName: "Niceto Club",
  city: "Buenos Aires",
  provinceLabel: "Ciudad Autónoma de Buenos Aires",
  priceLabel: "Desde $ 12.000,00",
  soldOut: false,
  paused: false,
  organizationName: "Producciones del Plata",
  ...over,
});

describe("EventGrid", () => {
  it("sizes every image, loads only the first ones eagerly and draws a placeholder without one", async () => {
    const events = [card({ slug: "a" }), card({ slug: "b" }), card({ slug: "c" }), card({ slug: "d", imageUrl: null, category: "teatro", categoryLabel: "Teatro" })];
    const { html } = await renderInRouter(<EventGrid events={events} />);
    const images = [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
    expect(images).toHaveLength(3);
    for (const img of images) {
      expect(img).toMatch(/width="640"/);
      expect(img).toMatch(/height="360"/);
      expect(img).toMatch(/decoding="async"/);
    }
    expect(images.map((img) => img.match(/loading="(\w+)"/)?.[1])).toEqual(["eager", "eager", "lazy"]);
    // Fixed box: no layout shift while the picture arrives; no request at all for the placeholder.
    expect(html.match(/aspect-\[16\/9\]/g)).toHaveLength(4);
    expect(html).toMatch(/data-placeholder=""[^>]*>.*Teatro/);
  });

  it("says Agotado instead of the price when nothing is left", async () => {
    const { html } = await renderInRouter(<EventGrid events={[card({ soldOut: true })]} />);
    expect(html).toContain("Agotado");
    expect(html).not.toContain("Desde $");
  });
});

const page = (over: Partial<EventPageData> = {}): EventPageData => ({
  event: {
    slug: "fiesta",
    name: "Fiesta",
    description: "Primera línea\n<script>alert(1)</script>",
    imageUrl: null,
    category: "fiestas",
    categoryLabel: "Fiestas",
    minAge: 18,
    paused: false,
    venue: { name: "Niceto Club", address: "Niceto Vega 5510", city: "Buenos Aires", provinceLabel: "Ciudad Autónoma de Buenos Aires" },
    mapsUrl: "https://www.google.com/maps/search/?api=1&query=Niceto",
    hasPresale: false,
    serviceFeeBps: 1000,
    serviceFeeLabel: "10 %",
    ivaCondition: "RESPONSABLE_INSCRIPTO",
  },
  organization: { name: "Producciones del Plata", slug: "producciones-del-plata" },
  dates: [{ id: "d1", dayLabel: "Jueves 3 de diciembre", startsLabel: "Jueves 3 de diciembre de 2026 · 23:00 h", timeLabel: "23:00", startsIso: "2026-12-04T02:00:00.000Z", doorsLabel: "22:00", onSale: true }],
  fromLabel: "Desde $ 13.200,00",
  tickets: [
    { id: "g", name: "General", description: "", price: 1_200_000, priceLabel: "$ 12.000,00", state: "on_sale", stateLabel: "A la venta", selectable: true, options: [0, 1, 2, 3], note: null, dateLabel: null, presale: false, unlocked: false },
    { id: "v", name: "VIP", description: "", price: 3_000_000, priceLabel: "$ 30.000,00", state: "sold_out", stateLabel: "Agotado", selectable: false, options: [0], note: null, dateLabel: null, presale: false, unlocked: false },
  ],
  selected: { g: 2 },
  eventDateId: null,
  presaleUnlocked: false,
  accessCodeApplied: false,
  referrer: null,
  dropped: [],
  pixelId: null,
  path: "/eventos/fiesta",
  ...over,
});

describe("EventPage", () => {
  it("renders a form that works without JavaScript, with the saved quantity chosen and sold-out tickets without a control", async () => {
    const { html } = await renderInRouter(<EventPage page={page()} />, { url: "/eventos/fiesta" });
    expect(html).toMatch(/<form method="post" action="\/eventos\/fiesta" id="entradas" novalidate=""/);
    // A number input that posts by itself; the − / + buttons come with JavaScript.
    expect(html).toMatch(/<input id="cantidad-g" name="qty-g" type="number" inputMode="numeric" min="0" max="3" step="1"[^>]* value="2"\/>/);
    expect(html).not.toContain("Agregar una entrada");
    expect(html).not.toContain('name="qty-v"');
    expect(html).toContain("Agotado");
    expect(html).toContain("Solo para mayores de 18 años");
    expect(html).toContain('href="/producciones-del-plata"');
  });

  it("says the date once, with its start and doors time, and the category once", async () => {
    const { html } = await renderInRouter(<EventPage page={page()} />, { url: "/eventos/fiesta" });
    expect(html.match(/Jueves 3 de diciembre/g)).toHaveLength(1);
    expect(html).not.toContain("03/12/2026");
    expect(html).toMatch(/Empieza <time dateTime="2026-12-04T02:00:00.000Z">23:00<\/time> · Puertas 22:00/);
    // No flyer: the placeholder shows the category, so the page does not say it again.
    expect(html.match(/>Fiestas</g)).toHaveLength(1);
    const withFlyer = await renderInRouter(<EventPage page={page({ event: { ...page().event, imageUrl: "/imagenes/fiesta.jpg" } })} />);
    expect(withFlyer.html).toMatch(/href="\/\?categoria=fiestas"[^>]*>Fiestas</);
  });

  it("has one buy button in a bar (fixed on phones) and, without JavaScript, says the prices include the fee", async () => {
    const { html } = await renderInRouter(<EventPage page={page()} />, { url: "/eventos/fiesta" });
    expect(html.match(/type="submit"[^>]*>Comprar</g)).toHaveLength(1);
    expect(html).toMatch(/data-buy-bar=""[^>]*class="fixed inset-x-0 bottom-0[^"]*lg:static/);
    // The loader's "Desde": the cheapest ticket's final price ($ 12.000 + 10 % fee).
    expect(html).toContain("Desde $ 13.200,00");
    expect(html).toContain("Precios finales, con el cargo de servicio (10 %) incluido: ves el total en el paso siguiente.");
  });

  it("never renders the description as HTML", async () => {
    const { html } = await renderInRouter(<EventPage page={page()} />);
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("shows a paused event with the banner and nothing to choose", async () => {
    const paused = page();
    paused.event.paused = true;
    paused.tickets = paused.tickets.map((t) => ({ ...t, selectable: false }));
    const { html } = await renderInRouter(<EventPage page={paused} />);
    expect(html).toContain("La venta está pausada");
    expect(html).not.toContain('type="number"');
    expect(html).not.toContain(">Comprar<");
  });

  it("shows who invited the buyer and loads the event's pixel", async () => {
    const { html } = await renderInRouter(<EventPage page={page({ referrer: { firstName: "Romina", lastName: "Relacionista" }, pixelId: "123456" })} />, { rootData: { pixelId: null } });
    expect(html).toMatch(/Te invitó <strong>Romina Relacionista<\/strong>/);
    expect(html).toContain("fbq('init','123456')");
  });
});
