/**
 * A purchase's money in the order it is computed (common/pricing.ts), the
 * same on the event page, the payer form and the summary before paying:
 * subtotal, then the coupon's discount, then the service fee on what is
 * left, then the total. Amounts already formatted.
 */
export function MoneyLines({
  subtotal,
  subtotalLabel = "Subtotal",
  discount,
  serviceFee,
  serviceFeeLabel,
  total,
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
  /** The list's accessible name. */
  label?: string;
  className?: string;
}) {
  return (
    <dl aria-label={label} className={`flex flex-col gap-1 text-sm ${className}`} data-money-lines="">
      <div className="flex justify-between gap-4" data-line="subtotal">
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
      <div className="mt-1 flex justify-between gap-4 border-t border-[var(--border)] pt-2 text-base font-bold" data-line="total">
        <dt>Total</dt>
        <dd data-total="">{total}</dd>
      </div>
    </dl>
  );
}
