import { Form, useNavigation } from "@remix-run/react";
import { Badge, type BadgeTone } from "#app/components/ui/Badge";
import { Button } from "#app/components/ui/Button";
import { fieldInputClasses } from "#app/components/ui/Field";
import { BUY_INTENT, DATE_FIELD, INTENT_FIELD, qtyFieldName } from "./picker-fields";

export type TicketStateName = "on_sale" | "sold_out" | "paused" | "not_started" | "ended" | "needs_code";

export interface PickerTicket {
  id: string;
  name: string;
  description: string;
  priceLabel: string;
  /** The price with the applied coupon (percent coupons), when it applies to this ticket. */
  discountedPriceLabel?: string | null;
  state: TicketStateName;
  stateLabel: string;
  /** A quantity select is offered (on sale, payable online, enough left). */
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
  /** "21:30 - 20/12/2026" */
  startsLabel: string;
  startsIso: string;
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

/**
 * The ticket picker: a plain POST form that works without JavaScript. One
 * quantity select per ticket on sale, the date as radios when there are
 * several; tickets that cannot be bought show their state and no control.
 * Messages come from the action (app/lib/cart.server.ts validateSelection).
 */
export function TicketPicker({
  action,
  tickets,
  dates,
  paused,
  selected,
  eventDateId,
  errors,
  serviceFeeLabel,
}: {
  action: string;
  tickets: PickerTicket[];
  dates: PickerDate[];
  paused: boolean;
  selected: Record<string, number>;
  eventDateId: string | null;
  errors?: PickerErrors | null;
  serviceFeeLabel: string | null;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formData?.get(INTENT_FIELD) === BUY_INTENT;
  const values = errors?.values ?? selected;
  const chosenDate = errors ? (errors.eventDateId ?? null) : eventDateId;
  const anySelectable = !paused && tickets.some((t) => t.selectable);
  const severalDates = dates.length > 1;
  const dateError = errors?.fieldErrors[DATE_FIELD]?.[0];
  const formErrors = errors?.formErrors ?? [];

  return (
    <Form method="post" action={action} aria-labelledby="entradas-titulo" aria-describedby={formErrors.length ? "entradas-errores" : undefined} className="flex flex-col gap-4">
      <input type="hidden" name={INTENT_FIELD} value={BUY_INTENT} />
      <h2 id="entradas-titulo" className="text-xl font-bold">
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
                  <time dateTime={d.startsIso}>{d.startsLabel}</time>
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
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0 flex-1">
                  <h3 className="font-bold">{t.name}</h3>
                  {t.discountedPriceLabel ? (
                    <p className="text-sm font-medium">
                      <s className="text-[var(--muted)]" aria-label={`Antes ${t.priceLabel}`}>
                        {t.priceLabel}
                      </s>{" "}
                      <span data-discounted-price="">{t.discountedPriceLabel}</span> <span className="text-xs">con cupón</span>
                    </p>
                  ) : (
                    <p className="text-sm font-medium">{t.priceLabel}</p>
                  )}
                  <div className="mt-1 flex flex-wrap gap-1">
                    {t.presale ? <Badge tone="secondary">Preventa</Badge> : null}
                    {t.unlocked ? <Badge tone="primary">Con código</Badge> : null}
                    {showState ? <Badge tone={paused ? "warning" : STATE_TONES[t.state]}>{paused ? "Venta pausada" : t.stateLabel}</Badge> : null}
                  </div>
                </div>
                {t.selectable && !paused ? (
                  <div className="flex shrink-0 flex-col items-end gap-1">
                    <label htmlFor={fieldId} className="text-xs text-[var(--muted)]">
                      Cantidad<span className="sr-only"> de {t.name}</span>
                    </label>
                    <select
                      id={fieldId}
                      name={qtyFieldName(t.id)}
                      defaultValue={String(values[t.id] ?? 0)}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${fieldId}-error` : undefined}
                      className={`${fieldInputClasses} w-20 text-center`}
                    >
                      {t.options.map((q) => (
                        <option key={q} value={q}>
                          {q}
                        </option>
                      ))}
                    </select>
                  </div>
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
        <div className="flex flex-col gap-2">
          {serviceFeeLabel ? (
            <p className="text-xs text-[var(--muted)]">Al pagar se suma el cargo de servicio ({serviceFeeLabel}).</p>
          ) : null}
          <Button type="submit" pending={submitting} pendingLabel="Guardando…" className="min-h-12 w-full text-base">
            Continuar
          </Button>
        </div>
      ) : (
        <p className="rounded-lg border border-dashed border-[var(--border)] px-3 py-3 text-sm text-[var(--muted)]">
          {paused ? "La venta está pausada: por ahora no se pueden elegir entradas." : "No hay entradas a la venta en este momento."}
        </p>
      )}
    </Form>
  );
}
