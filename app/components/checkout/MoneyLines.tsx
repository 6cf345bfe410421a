/**
 * A purchase's money, the same on the event page, the payer form and the
 * summary before paying (docs/prices.md): the total (the final price, all the
 * buyer pays) first and most prominent, the price without national taxes
 * beside it when there is one (Ley 27.743), then the breakdown in the order it
 * is computed (common/pricing.ts): subtotal, the coupon's discount, the
 * service fee on what is left. Amounts already formatted.
 */
export function MoneyLines({
  subtotal,
  subtotalLabel = "Subtotal",
  discount,
  serviceFee,
  serviceFeeLabel,
  total,
  withoutNationalTaxes,
  label,
  className = "",
}: {
  subtotal: string;
  subtotalLabel?: string;
  /** Formatted, without the sign; null without a coupon. */
  discount?: string | null;
  /** Null when the event charges no fee. */
  serviceFee: string | null;
  /** "10 %" */
  serviceFeeLabel?: string | null;
  total: string;
  /** The price without national taxes (common/tax-display.ts); null when it equals the total. */
  withoutNationalTaxes?: string | null;
  /** The list's accessible name. */
  label?: string;
  className?: string;
}) {
  return (
    <dl aria-label={label} className={`flex flex-col gap-1 text-sm ${className}`} data-money-lines="">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 text-lg font-bold" data-line="total">
        <dt>Total</dt>
        <dd data-total="">{total}</dd>
      </div>
      {withoutNationalTaxes ? (
        <div className="flex flex-wrap justify-between gap-x-4 text-xs text-[var(--muted)]" data-line="without-national-taxes">
          <dt>Precio sin impuestos nacionales</dt>
          <dd data-without-national-taxes="">{withoutNationalTaxes}</dd>
        </div>
      ) : null}
      <div className="mt-1 flex justify-between gap-4 border-t border-[var(--border)] pt-2" data-line="subtotal">
        <dt>{subtotalLabel}</dt>
        <dd>{subtotal}</dd>
      </div>
      {discount ? (
        <div className="flex justify-between gap-4" data-line="discount">
          <dt>Descuento por cupón</dt>
          <dd data-discount="">{`−${discount}`}</dd>
        </div>
      ) : null}
      {serviceFee ? (
        <div className="flex justify-between gap-4" data-line="service-fee">
          <dt>
            Cargo de servicio{serviceFeeLabel ? ` (${serviceFeeLabel})` : ""}
            {discount ? <span className="block text-xs text-[var(--muted)]">sobre el precio con descuento</span> : null}
          </dt>
          <dd data-service-fee="">{serviceFee}</dd>
        </div>
      ) : null}
    </dl>
  );
}
