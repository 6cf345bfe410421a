/**
 * What a purchase holds, in the buyer's words (docs/wording.md, "Consumiciones"):
 * an entrada gets you in at the door, a consumición is picked up at the bar
 * (decision 106). Pages, emails and the PDF ask here instead of writing
 * "entradas" everywhere, so a drink order never reads like a ticket order and
 * a list with both (Mis tickets) names both. Pure and browser-safe.
 */

/** What one issued product is: `ticket_types.kind`. */
export type ProductKind = "ticket" | "menu";

/** A purchase (or a list) of only tickets, only menu items, or both. */
export type PurchaseKind = ProductKind | "mixed";

export function purchaseKindOf(kinds: Iterable<ProductKind>): PurchaseKind {
  const set = new Set(kinds);
  if (set.has("ticket") && set.has("menu")) return "mixed";
  return set.has("menu") ? "menu" : "ticket";
}

interface PurchaseWords {
  kind: PurchaseKind;
  /** One of them, lowercase: "entrada", "consumición", "entrada o consumición". */
  one: string;
  /** "1 entrada", "3 consumiciones", "2 entradas y consumiciones". */
  count: (count: number) => string;
  /** "entradas", "consumiciones", "entradas y consumiciones". */
  plural: string;
  /** "las entradas", "las consumiciones", "las entradas y consumiciones" (all feminine: "volvieron a la venta", "quedaron anuladas"). */
  the: string;
  /** "Tus entradas", "Tus consumiciones", "Tus entradas y consumiciones". */
  yours: string;
  /** The heading over `count` of them: "Tu entrada", "Tus 3 consumiciones", "Tus entradas y consumiciones". */
  yoursCount: (count: number) => string;
  /** Where the QR is shown: "en la entrada", "en la barra", "en la puerta o en la barra". */
  showAt: string;
  /** After a refund: "ya no sirven para entrar", "ya no se pueden retirar en la barra". */
  voidedUse: string;
}

const WORDS: Record<PurchaseKind, Omit<PurchaseWords, "yoursCount" | "count" | "kind">> = {
  ticket: { one: "entrada", plural: "entradas", the: "las entradas", yours: "Tus entradas", showAt: "en la entrada", voidedUse: "ya no sirven para entrar" },
  menu: { one: "consumición", plural: "consumiciones", the: "las consumiciones", yours: "Tus consumiciones", showAt: "en la barra", voidedUse: "ya no se pueden retirar en la barra" },
  mixed: {
    one: "entrada o consumición",
    plural: "entradas y consumiciones",
    the: "las entradas y consumiciones",
    yours: "Tus entradas y consumiciones",
    showAt: "en la puerta o en la barra",
    voidedUse: "ya no sirven ni en la puerta ni en la barra",
  },
};

/** The words for a purchase of these kinds (none: tickets, as before a purchase has lines). */
export function purchaseWords(kinds: Iterable<ProductKind> | PurchaseKind): PurchaseWords {
  const kind = typeof kinds === "string" ? kinds : purchaseKindOf(kinds);
  const { one, ...words } = WORDS[kind];
  return {
    kind,
    one,
    ...words,
    count: (count) => `${count} ${count === 1 ? one : words.plural}`,
    yoursCount: (count) => (kind === "mixed" ? words.yours : count === 1 ? `Tu ${one}` : `Tus ${count} ${words.plural}`),
  };
}

/** One product's name for its card, PDF page or email block: "Entrada", "Consumición". */
export function productUnit(kind: ProductKind): string {
  return kind === "menu" ? "Consumición" : "Entrada";
}
