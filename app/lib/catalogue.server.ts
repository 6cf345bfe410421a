import { DateTime } from "luxon";
import type { listPublicEvents } from "#server/events/catalogue";
import { EVENT_CATEGORIES } from "#server/events/schemas";
import { formatDateTime, isDayWithinRange, parseDay, TIME_ZONE } from "#common/dates";
import { unitPriceFigures } from "#server/orders/price-display";
import { withoutNationalTaxesLine } from "#common/tax-display";
import { PROVINCES } from "#common/validation";
import type { EventCardData } from "#app/components/events/EventCard";
import type { FeaturedEventData } from "#app/components/events/FeaturedEvent";
import type { CatalogueFilterValues, CategoryChip, SelectChoice } from "#app/components/events/SearchForm";

/**
 * Loader-side helpers for the catalogue pages (`/`, `/{orgSlug}`): they turn
 * the domain's rows into what the cards show, already formatted, so the
 * browser needs neither luxon nor the validation schemas.
 */
export const PAGE_SIZE = 12;

export const PROVINCE_OPTIONS: SelectChoice[] = PROVINCES.map((p) => ({ value: p.value, label: p.label }));
export const CATEGORY_OPTIONS: SelectChoice[] = EVENT_CATEGORIES.map((c) => ({ value: c.value, label: c.label }));

export function provinceLabel(code: string): string {
  return PROVINCES.find((p) => p.value === code)?.label ?? code;
}

export function categoryLabel(value: string): string {
  return EVENT_CATEGORIES.find((c) => c.value === value)?.label ?? "Evento";
}

type CatalogueItem = Awaited<ReturnType<typeof listPublicEvents>>["items"][number];

/**
 * "Desde $ X": the final price (service fee included, docs/prices.md) of the
 * cheapest ticket still left, else of the cheapest on sale; with the price
 * without national taxes of that same figure.
 */
export function cardPrice(item: Pick<CatalogueItem, "minPrice" | "fromPrice" | "serviceFeeBps">): { priceLabel: string | null; withoutNationalTaxesLine: string | null } {
  const cheapest = item.fromPrice ?? item.minPrice;
  if (cheapest === null) return { priceLabel: null, withoutNationalTaxesLine: null };
  const figures = unitPriceFigures(cheapest, item.serviceFeeBps ?? 0);
  return { priceLabel: figures.finalCents === 0 ? "Gratis" : `Desde ${figures.final}`, withoutNationalTaxesLine: figures.withoutNationalTaxes && withoutNationalTaxesLine(figures.withoutNationalTaxes) };
}

const zoned = (date: Date) => DateTime.fromJSDate(date).setZone(TIME_ZONE).setLocale("es-AR");

export function toEventCard(item: CatalogueItem): EventCardData {
  return {
    slug: item.slug,
    name: item.name,
    imageUrl: item.imageUrl,
    category: item.category,
    categoryLabel: categoryLabel(item.category),
    dateLabel: formatDateTime(item.nextDate),
    shortDateLabel: zoned(item.nextDate).toFormat("ccc d LLL · HH:mm"),
    dateTime: item.nextDate.toISOString(),
    venueName: item.venueName,
    city: item.city,
    provinceLabel: provinceLabel(item.province),
    ...cardPrice(item),
    soldOut: item.available <= 0,
    paused: item.status === "paused",
    organizationName: item.organizationName,
  };
}

/**
 * The storefront's featured event among a page of the catalogue: the first (soonest) one on sale with a picture,
 * else the first on sale; none when everything is sold out or paused.
 */
export function pickFeatured(items: CatalogueItem[]): FeaturedEventData | null {
  const onSale = items.filter((item) => item.available > 0 && item.status !== "paused");
  const item = onSale.find((i) => i.imageUrl) ?? onSale[0];
  if (!item) return null;
  return { ...toEventCard(item), longDateLabel: zoned(item.nextDate).toFormat("cccc d 'de' LLLL · HH:mm") };
}

/**
 * The category chips: links to the same search with that category (or none, "Todos"), back on its first page.
 * Plain links, so they filter without JavaScript; the current one is marked.
 */
export function categoryChips(url: URL, current: string): CategoryChip[] {
  const href = (value: string) => {
    const params = new URLSearchParams(url.searchParams);
    params.delete("pagina");
    if (value) params.set("categoria", value);
    else params.delete("categoria");
    for (const [key, v] of [...params.entries()]) if (!v) params.delete(key);
    const query = params.toString();
    return `${url.pathname}${query ? `?${query}` : ""}`;
  };
  return [{ value: "", label: "Todos" }, ...CATEGORY_OPTIONS].map((c) => ({ ...c, href: href(c.value), current: c.value === current }));
}

/** A `yyyy-MM-dd` inside the spec's range, as the start (or the end) of that day in Buenos Aires. */
function dayBound(value: string, edge: "start" | "end"): Date | null {
  if (!value || !isDayWithinRange(value)) return null;
  const day = DateTime.fromISO(value, { zone: TIME_ZONE });
  if (!day.isValid) return null;
  return (edge === "start" ? day.startOf("day") : day.endOf("day")).toJSDate();
}

export const SEARCH_MESSAGES = {
  badRange: "La fecha «Hasta» tiene que ser igual o posterior a «Desde». Buscamos desde esa fecha en adelante.",
  badDay: (label: "Desde" | "Hasta") => `No entendimos la fecha «${label}»: escribila como dd/mm/aaaa, entre el 01/01/1900 y el 31/12/2099. Buscamos sin ella.`,
} as const;

/**
 * The home's GET search: `q`, `provincia`, `categoria`, `desde`, `hasta`
 * (Buenos Aires days, dd/mm/aaaa or yyyy-MM-dd) and `pagina` (from 1).
 * Anything invalid is ignored, never an error page; a date that cannot be
 * read is said in a notice.
 */
export function parseCatalogueSearch(url: URL) {
  const params = url.searchParams;
  const q = (params.get("q") ?? "").trim().slice(0, 100);
  const province = params.get("provincia") ?? "";
  const category = params.get("categoria") ?? "";
  // The form sends what was typed (dd/mm/aaaa, or only the digits); links the app builds carry yyyy-MM-dd.
  const fromText = parseDay(params.get("desde")) ?? "";
  const toText = parseDay(params.get("hasta")) ?? "";
  const pageNumber = Number(params.get("pagina") ?? "1");
  const page = Number.isInteger(pageNumber) && pageNumber >= 1 && pageNumber <= 1000 ? pageNumber : 1;

  const values: CatalogueFilterValues = {
    q,
    provincia: PROVINCE_OPTIONS.some((p) => p.value === province) ? province : "",
    categoria: CATEGORY_OPTIONS.some((c) => c.value === category) ? category : "",
    desde: dayBound(fromText, "start") ? fromText : "",
    hasta: dayBound(toText, "end") ? toText : "",
  };
  const notices: string[] = [];
  if (params.get("desde")?.trim() && !values.desde) notices.push(SEARCH_MESSAGES.badDay("Desde"));
  if (params.get("hasta")?.trim() && !values.hasta) notices.push(SEARCH_MESSAGES.badDay("Hasta"));
  if (values.desde && values.hasta && values.hasta < values.desde) {
    notices.push(SEARCH_MESSAGES.badRange);
    values.hasta = "";
  }
  return {
    values,
    page,
    notices,
    filter: {
      search: values.q || null,
      province: values.provincia || null,
      category: values.categoria || null,
      from: values.desde ? dayBound(values.desde, "start") : null,
      to: values.hasta ? dayBound(values.hasta, "end") : null,
      page: page - 1,
      limit: PAGE_SIZE,
    },
  };
}

/** Links for the pager: the same search with another `pagina`. */
export function pageHref(url: URL, page: number): string {
  const params = new URLSearchParams(url.searchParams);
  if (page <= 1) params.delete("pagina");
  else params.set("pagina", String(page));
  for (const [key, value] of [...params.entries()]) if (!value) params.delete(key);
  const query = params.toString();
  return `${url.pathname}${query ? `?${query}` : ""}`;
}

export function pagination(url: URL, result: { total: number; page: number; limit: number }) {
  const pages = Math.max(1, Math.ceil(result.total / result.limit));
  const current = result.page + 1;
  return {
    current,
    pages,
    total: result.total,
    previous: current > 1 ? pageHref(url, current - 1) : null,
    next: current < pages ? pageHref(url, current + 1) : null,
  };
}
