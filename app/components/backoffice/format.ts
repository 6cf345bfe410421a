/** Integer centavos → what the price input shows and parseMoney reads back: 150050 → "1500,50", 150000 → "1500". */
export function centavosToInput(centavos: number): string {
  const pesos = Math.floor(centavos / 100);
  const cents = centavos % 100;
  return cents ? `${pesos},${String(cents).padStart(2, "0")}` : String(pesos);
}

/** "1.234 / 2.000" */
export function soldOfStock(sold: number, stock: number): string {
  const f = new Intl.NumberFormat("es-AR");
  return `${f.format(sold)} / ${f.format(stock)}`;
}

/** The organization link suggested from its name; the server's rule (server/organizations/slugs.ts) decides. */
export { slugify as suggestSlug } from "#common/slug";
