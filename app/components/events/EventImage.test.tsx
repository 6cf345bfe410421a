import { describe, expect, it } from "vitest";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import { CARD_IMAGE_SIZES, EventGrid, type EventCardData } from "./EventCard";
import { EventImage } from "./EventImage";
import { FeaturedEvent } from "./FeaturedEvent";

const ID = "0123456789abcdef0123456789abcdef";

const card = (over: Partial<EventCardData> = {}): EventCardData => ({
  slug: "jazz-al-lago",
  name: "Jazz al Lago",
  imageUrl: `/imagenes/${ID}-1200.webp`,
  category: "recitales",
  categoryLabel: "Recitales",
  dateLabel: "19:00 - 12/12/2026",
  shortDateLabel: "sáb 12 dic · 19:00",
  dateTime: "2026-12-12T22:00:00.000Z",
  venueName: "Puerto San Carlos",
  city: "San Carlos de Bariloche",
  provinceLabel: "Río Negro",
  priceLabel: "Desde $ 22.000,00",
  soldOut: false,
  paused: false,
  organizationName: "Patagonia Live",
  ...over,
});

const attribute = (html: string, name: string) => new RegExp(`<img [^>]*${name}="([^"]*)"`).exec(html)?.[1];

describe("EventImage, responsive", () => {
  it("offers every stored width with srcset, and sizes says how wide it is drawn", async () => {
    const { html } = await renderInRouter(<EventImage imageUrl={`/imagenes/${ID}-1200.webp`} alt="Jazz al Lago" category="recitales" categoryLabel="Recitales" sizes="50vw" />);
    expect(attribute(html, "src")).toBe(`/imagenes/${ID}-1200.webp`);
    expect(attribute(html, "srcSet")).toBe(`/imagenes/${ID}-400.webp 400w, /imagenes/${ID}-800.webp 800w, /imagenes/${ID}-1200.webp 1200w`);
    expect(attribute(html, "sizes")).toBe("50vw");
    // Still a fixed box: width and height keep the 16:9 ratio before the picture arrives.
    expect(attribute(html, "width")).toBe("640");
    expect(attribute(html, "height")).toBe("360");
  });

  it("as before for an image without width copies (older uploads): no srcset, no sizes; the whole screen by default", async () => {
    const old = await renderInRouter(<EventImage imageUrl={`/imagenes/${ID}.jpg`} alt="" category="teatro" categoryLabel="Teatro" />);
    expect(attribute(old.html, "src")).toBe(`/imagenes/${ID}.jpg`);
    expect(old.html).not.toMatch(/srcSet|sizes=/);
    const fresh = await renderInRouter(<EventImage imageUrl={`/imagenes/${ID}-800.webp`} alt="" category="teatro" categoryLabel="Teatro" />);
    expect(attribute(fresh.html, "sizes")).toBe("100vw");
    expect(attribute(fresh.html, "srcSet")).toBe(`/imagenes/${ID}-400.webp 400w, /imagenes/${ID}-800.webp 800w`);
  });

  it("cards ask for a column's width: half the phone, a quarter of the desktop", async () => {
    const { html } = await renderInRouter(<EventGrid events={[card()]} />);
    expect(attribute(html, "sizes")).toBe(CARD_IMAGE_SIZES);
    // Only one picture per page goes first; cards wait their turn.
    expect(html).not.toContain("fetchpriority");
    expect(CARD_IMAGE_SIZES).toMatch(/, 50vw$/);
    expect(html).toContain('class="grid grid-cols-2');
    expect(html).toContain("sáb 12 dic · 19:00");
  });

  it("the featured event loads its picture at once, nearly full width, with one clear button", async () => {
    const { html } = await renderInRouter(<FeaturedEvent event={{ ...card(), longDateLabel: "sábado 12 de diciembre · 19:00" }} />);
    expect(attribute(html, "loading")).toBe("eager");
    // It is the home's largest picture (its LCP): the browser fetches it before the scripts.
    expect(attribute(html, "fetchpriority")).toBe("high");
    expect(attribute(html, "sizes")).toMatch(/100vw$/);
    expect(html).toMatch(/<h2 id="evento-destacado"[^>]*><a [^>]*href="\/eventos\/jazz-al-lago"[^>]*>Jazz al Lago<\/a><\/h2>/);
    expect(html).toMatch(/<a [^>]*href="\/eventos\/jazz-al-lago"[^>]*>Comprá tu entrada<\/a>/);
    const free = await renderInRouter(<FeaturedEvent event={{ ...card(), priceLabel: "Gratis", longDateLabel: "sábado 12 de diciembre · 19:00" }} />);
    expect(free.html).toContain("Sacá tu entrada");
  });
});
