import { useEffect, useRef, useState } from "react";
import { Form, useNavigation } from "@remix-run/react";
import { formatMoney } from "#common/money";
import { purchaseTotals, type CouponRule } from "#common/pricing";
import { priceDisplay, type PlatformIvaCondition } from "#common/tax-display";
import { Badge, type BadgeTone } from "#app/components/ui/Badge";
import { Button } from "#app/components/ui/Button";
import { MoneyLines } from "#app/components/checkout/MoneyLines";
import { BUY_INTENT, DATE_FIELD, INTENT_FIELD, qtyFieldName } from "./picker-fields";

export type TicketStateName = "on_sale" | "sold_out" | "paused" | "not_started" | "ended" | "needs_code";

export interface PickerTicket {
  id: string;
  name: string;
  description: string;
  /** Centavos, without the service fee, for the live total. */
  price: number;
  /** The final price, service fee included (docs/prices.md); "Gratis" when zero. */
  priceLabel: string;
  /** The final price with the applied coupon (percent coupons), when it applies to this ticket. */
  discountedPriceLabel?: string | null;
  /** "Precio sin impuestos nacionales: $ X" of the first price shown; null or absent when it equals it. */
  withoutNationalTaxesLine?: string | null;
  state: TicketStateName;
  stateLabel: string;
  /** A quantity stepper is offered (on sale, payable online, enough left). */
  selectable: boolean;
  /** 0, then minimum per order… min(maximum per order, available). */
  options: number[];
  note: string | null;
  /** Set when the ticket is only for one of several dates. */
  dateLabel: string | null;
  presale: boolean;
  /** Revealed by an access code. */
  unlocked: boolean;
}

export interface PickerDate {
  id: string;
  /** "sábado 20 de diciembre" */
  dayLabel: string;
  /** "21:30 - 20/12/2026" (the page's title) */
  startsLabel: string;
  /** "21:30": the day is dayLabel's */
  timeLabel: string;
  startsIso: string;
  /** "20:30" the same day; "23:30 - 19/12/2026" when the doors open another day. */
  doorsLabel: string | null;
  onSale: boolean;
}

export interface PickerErrors {
  formErrors: string[];
  fieldErrors: Record<string, string[]>;
  values: Record<string, number>;
  eventDateId?: string;
}

const STATE_TONES: Record<TicketStateName, BadgeTone> = {
  on_sale: "success",
  sold_out: "danger",
  paused: "warning",
  not_started: "neutral",
  ended: "neutral",
  needs_code: "secondary",
};

export const PICKER_FORM_ID = "entradas";

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** "1 entrada" / "3 entradas" */
function ticketsCount(n: number) {
  return n === 1 ? "1 entrada" : `${n} entradas`;
}

/** The typed quantity as a number (anything else counts as 0 for the total; the action says what is wrong). */
function quantityOf(text: string | undefined): number {
  return text && /^\d{1,4}$/.test(text.trim()) ? Number(text.trim()) : 0;
}

/**
 * The ticket picker: a plain POST form that works without JavaScript. One
 * quantity input per ticket on sale (with − / + buttons once JavaScript
 * runs), the date as radios when there are several; tickets that cannot be
 * bought show their state and no control. With JavaScript the total (coupon
 * and service fee included, common/pricing.ts) follows every change; without
 * it the next page shows it. Every price is the final one, service fee
 * included, with the price without national taxes beside it (docs/prices.md). On a phone the total and the buy button sit in
 * a bar fixed at the bottom of the screen. Messages come from the action
 * (previewOrder, through app/lib/cart.server.ts checkPickerSelection).
 */
export function TicketPicker({
  action,
  tickets,
  dates,
  paused,
  selected,
  eventDateId,
  errors,
  serviceFeeBps,
  serviceFeeLabel,
  ivaCondition = "RESPONSABLE_INSCRIPTO",
  fromLabel,
  coupon,
}: {
  action: string;
  tickets: PickerTicket[];
  dates: PickerDate[];
  paused: boolean;
  selected: Record<string, number>;
  eventDateId: string | null;
  errors?: PickerErrors | null;
  serviceFeeBps: number;
  serviceFeeLabel: string | null;
  ivaCondition?: PlatformIvaCondition;
  /** "Desde $ X" (the cheapest final price, from the loader) or "Gratis": the phone's bar before choosing. */
  fromLabel?: string | null;
  coupon?: CouponRule | null;
}) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const submitting = navigation.state !== "idle" && navigation.formData?.get(INTENT_FIELD) === BUY_INTENT;
  const values = errors?.values ?? selected;
  const chosenDate = errors ? (errors.eventDateId ?? null) : eventDateId;
  const anySelectable = !paused && tickets.some((t) => t.selectable);
  const severalDates = dates.length > 1;
  const dateError = errors?.fieldErrors[DATE_FIELD]?.[0];
  const formErrors = errors?.formErrors ?? [];
  const [quantities, setQuantities] = useState<Record<string, string>>(() =>
    Object.fromEntries(tickets.filter((t) => t.selectable).map((t) => [t.id, String(values[t.id] ?? 0)])),
  );

  // What the buyer typed before the page hydrated stays: hydration keeps the typed text in the input, but the
  // first render after it would put the state's value back (the JavaScript arrives after the image is painted, decision 132).
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const typed: Record<string, string> = {};
    for (const t of tickets) {
      const input = form.elements.namedItem(qtyFieldName(t.id));
      if (t.selectable && input instanceof HTMLInputElement) typed[t.id] = input.value;
    }
    setQuantities((current) => (Object.entries(typed).some(([id, value]) => current[id] !== value) ? { ...current, ...typed } : current));
  }, []); // once, on hydration

  const lines = tickets.filter((t) => t.selectable).map((t) => ({ ticketTypeId: t.id, qty: quantityOf(quantities[t.id]), unitPrice: t.price })).filter((l) => l.qty > 0);
  const count = lines.reduce((sum, l) => sum + l.qty, 0);
  const totals = purchaseTotals(lines, serviceFeeBps, coupon);
  const { withoutNationalTaxes } = priceDisplay(totals.subtotal - totals.discount, totals.serviceFee, ivaCondition);

  return (
    <Form
      ref={formRef}
      id={PICKER_FORM_ID}
      method="post"
      action={action}
      noValidate
      aria-labelledby="entradas-titulo"
      aria-describedby={formErrors.length ? "entradas-errores" : undefined}
      className="flex scroll-mt-24 flex-col gap-4"
    >
      <input type="hidden" name={INTENT_FIELD} value={BUY_INTENT} />
      <h2 id="entradas-titulo" className="scroll-mt-24 text-xl font-bold">
        Entradas
      </h2>
      {formErrors.length ? (
        <div id="entradas-errores" className="rounded-lg border border-red-500 bg-red-50 px-4 py-3 text-sm text-red-900 dark:bg-red-950/40 dark:text-red-100">
          {formErrors.length === 1 ? (
            formErrors[0]
          ) : (
            <ul className="list-disc pl-4">
              {formErrors.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          )}
        </div>
      ) : null}

      {severalDates ? (
        <fieldset className="flex flex-col gap-2" aria-describedby={dateError ? "fecha-error" : undefined} aria-invalid={dateError ? true : undefined}>
          <legend className="mb-1 font-bold">Elegí la fecha</legend>
          {dates.map((d) => (
            <label
              key={d.id}
              className={`flex min-h-11 items-center gap-3 rounded-lg border px-3 py-2 ${d.onSale ? "cursor-pointer border-[var(--border)] has-checked:border-primary-500 has-checked:bg-primary-500/10" : "border-dashed border-[var(--border)] opacity-60"}`}
            >
              <input
                type="radio"
                name={DATE_FIELD}
                value={d.id}
                defaultChecked={chosenDate === d.id}
                disabled={!d.onSale}
                className="h-4 w-4 accent-primary-500"
              />
              <span className="flex flex-col">
                <span className="font-medium">{d.dayLabel}</span>
                <span className="text-sm text-[var(--muted)]">
                  <time dateTime={d.startsIso}>{d.timeLabel}</time>
                  {d.doorsLabel ? ` · Puertas ${d.doorsLabel}` : ""}
                  {d.onSale ? "" : " · Venta pausada"}
                </span>
              </span>
            </label>
          ))}
          <p id="fecha-error" className="min-h-5 text-sm text-red-600 dark:text-red-400" aria-live="polite">
            {dateError ?? null}
          </p>
        </fieldset>
      ) : null}

      <ul className="flex flex-col gap-3">
        {tickets.map((t) => {
          const error = errors?.fieldErrors[t.id]?.[0];
          const fieldId = `cantidad-${t.id}`;
          const showState = paused || t.state !== "on_sale";
          return (
            <li key={t.id} className={`rounded-xl border p-3 ${error ? "border-red-500" : "border-[var(--border)]"} bg-[var(--surface)]`}>
              <div className="flex items-center justify-between gap-3">
                <div className="min-w-0 flex-1">
                  <h3 className="font-bold leading-snug">{t.name}</h3>
                  {t.discountedPriceLabel ? (
                    <p className="text-lg font-bold">
                      <span data-discounted-price="">{t.discountedPriceLabel}</span> <span className="text-xs font-medium">con cupón</span>{" "}
                      <s className="text-sm font-medium text-[var(--muted)]" aria-label={`Antes ${t.priceLabel}`}>
                        {t.priceLabel}
                      </s>
                    </p>
                  ) : (
                    <p className="text-lg font-bold" data-price="">
                      {t.priceLabel}
                    </p>
                  )}
                  {t.withoutNationalTaxesLine ? <p className="text-xs text-[var(--muted)]">{t.withoutNationalTaxesLine}</p> : null}
                  {t.presale || t.unlocked || showState ? (
                    <div className="mt-1 flex flex-wrap gap-1">
                      {t.presale ? <Badge tone="secondary">Preventa</Badge> : null}
                      {t.unlocked ? <Badge tone="primary">Con código</Badge> : null}
                      {showState ? <Badge tone={paused ? "warning" : STATE_TONES[t.state]}>{paused ? "Venta pausada" : t.stateLabel}</Badge> : null}
                    </div>
                  ) : null}
                </div>
                {t.selectable && !paused ? (
                  <QuantityStepper
                    id={fieldId}
                    name={qtyFieldName(t.id)}
                    ticketName={t.name}
                    options={t.options}
                    value={quantities[t.id] ?? "0"}
                    onChange={(value) => setQuantities((q) => ({ ...q, [t.id]: value }))}
                    enhanced={hydrated}
                    error={error}
                  />
                ) : null}
              </div>
              {t.description ? <p className="mt-2 whitespace-pre-line text-sm text-[var(--muted)]">{t.description}</p> : null}
              {t.dateLabel ? <p className="mt-1 text-xs text-[var(--muted)]">Solo para la fecha {t.dateLabel}</p> : null}
              {t.note ? <p className="mt-1 text-xs text-[var(--muted)]">{t.note}</p> : null}
              {error ? (
                <p id={`${fieldId}-error`} className="mt-2 text-sm text-red-600 dark:text-red-400">
                  {error}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>

      {anySelectable ? (
        <>
          {hydrated && count > 0 ? (
            <MoneyLines
              label="Tu compra"
              subtotalLabel={`Subtotal (${ticketsCount(count)})`}
              subtotal={formatMoney(totals.subtotal)}
              discount={totals.discount > 0 ? formatMoney(totals.discount) : null}
              serviceFee={serviceFeeLabel ? formatMoney(totals.serviceFee) : null}
              serviceFeeLabel={serviceFeeLabel}
              total={formatMoney(totals.total)}
              withoutNationalTaxes={withoutNationalTaxes === null ? null : formatMoney(withoutNationalTaxes)}
              className="rounded-xl border border-[var(--border)] px-4 py-3"
            />
          ) : serviceFeeLabel ? (
            <p className="text-xs text-[var(--muted)]">
              {hydrated ? `Los precios ya incluyen el cargo de servicio (${serviceFeeLabel}).` : `Precios finales, con el cargo de servicio (${serviceFeeLabel}) incluido: ves el total en el paso siguiente.`}
            </p>
          ) : null}
          <div
            data-buy-bar=""
            className="fixed inset-x-0 bottom-0 z-30 border-t border-[var(--border)] bg-[var(--bg)] px-4 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] shadow-[0_-8px_24px_rgb(0_0_0/0.25)] lg:static lg:border-0 lg:bg-transparent lg:p-0 lg:shadow-none"
          >
            <div className="mx-auto flex max-w-6xl items-center gap-3">
              <p className="min-w-0 flex-1 lg:hidden" aria-live="polite">
                {hydrated && count > 0 ? (
                  <>
                    <span className="block text-xs text-[var(--muted)]">{serviceFeeLabel ? `${ticketsCount(count)} · cargo incluido` : ticketsCount(count)}</span>
                    <span className="block text-xl font-bold" data-live-total="">
                      {formatMoney(totals.total)}
                    </span>
                  </>
                ) : fromLabel ? (
                  <>
                    <span className="block text-xs text-[var(--muted)]">Entradas</span>
                    <span className="block text-xl font-bold">{fromLabel}</span>
                  </>
                ) : null}
              </p>
              <Button type="submit" pending={submitting} pendingLabel="Guardando…" className="min-h-12 shrink-0 px-8 text-base lg:w-full">
                Comprar
              </Button>
            </div>
          </div>
        </>
      ) : (
        <p className="rounded-lg border border-dashed border-[var(--border)] px-3 py-3 text-sm text-[var(--muted)]">
          {paused ? "La venta está pausada: por ahora no se pueden elegir entradas." : "No hay entradas a la venta en este momento."}
        </p>
      )}
    </Form>
  );
}

const stepButton =
  "inline-flex size-11 shrink-0 items-center justify-center text-xl font-bold text-[var(--text)] hover:bg-primary-500/15 disabled:cursor-not-allowed disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-primary-400";

/**
 * "− [2] +": a number input that posts on its own (without JavaScript it is
 * all there is); once JavaScript runs, the buttons step through the allowed
 * quantities (0, then the minimum per order up to the maximum).
 */
function QuantityStepper({
  id,
  name,
  ticketName,
  options,
  value,
  onChange,
  enhanced,
  error,
}: {
  id: string;
  name: string;
  ticketName: string;
  options: number[];
  value: string;
  onChange: (value: string) => void;
  enhanced: boolean;
  error?: string;
}) {
  const current = quantityOf(value);
  const max = options[options.length - 1] ?? 0;
  const down = [...options].reverse().find((q) => q < current);
  const up = options.find((q) => q > current);
  return (
    <div className="flex shrink-0 flex-col items-center gap-1">
      <label htmlFor={id} className="text-xs text-[var(--muted)]">
        Cantidad<span className="sr-only"> de {ticketName}</span>
      </label>
      <div className={`flex items-center overflow-hidden rounded-lg border bg-[var(--bg)] ${error ? "border-red-500" : "border-[var(--border)]"}`}>
        {enhanced ? (
          <button type="button" className={stepButton} onClick={() => onChange(String(down ?? 0))} disabled={down === undefined} aria-label={`Quitar una entrada de ${ticketName}`} aria-controls={id}>
            <span aria-hidden="true">−</span>
          </button>
        ) : null}
        <input
          id={id}
          name={name}
          type="number"
          inputMode="numeric"
          min={0}
          max={max}
          step={1}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={`h-11 bg-transparent text-center text-lg font-bold text-[var(--text)] focus:outline-2 focus:outline-offset-[-2px] focus:outline-primary-400 ${enhanced ? "w-12 [appearance:textfield] [&::-webkit-inner-spin-button]:appearance-none [&::-webkit-outer-spin-button]:appearance-none" : "w-20"}`}
        />
        {enhanced ? (
          <button type="button" className={stepButton} onClick={() => onChange(String(up ?? current))} disabled={up === undefined} aria-label={`Agregar una entrada de ${ticketName}`} aria-controls={id}>
            <span aria-hidden="true">+</span>
          </button>
        ) : null}
      </div>
    </div>
  );
}
