const formatter = new Intl.NumberFormat("es-AR", { style: "currency", currency: "ARS" });

/** Integer centavos → "$ 1.500,00" */
export function formatMoney(centavos: number): string {
  return formatter.format(centavos / 100);
}

/**
 * What people type for a price ("1500", "1.500", "1.500,50", "1500.5") →
 * integer centavos, or null when it is not an amount.
 */
export function parseMoney(value: string): number | null {
  let text = value.trim().replace(/^\$\s*/, "").replace(/\s/g, "");
  if (!text) return null;
  if (/,\d{1,2}$/.test(text)) text = text.replace(/\./g, "").replace(",", ".");
  else if (/^\d{1,3}(\.\d{3})+$/.test(text)) text = text.replace(/\./g, "");
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null;
  return Math.round(Number(text) * 100);
}
