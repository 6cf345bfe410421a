import { controlAria, FieldFrame, fieldInputClasses } from "#app/components/ui/Field";

export interface WaitlistDateOption {
  id: string;
  label: string;
  /** How many one may ask for "any ticket" of this date; 0 when some ticket of it is still on sale. */
  maxAny: number;
  tickets: { id: string; label: string; max: number }[];
}

/**
 * What to wait for (a date and a ticket type, or any ticket of the date) and how many: two native selects, so the
 * form works without JavaScript. The value of `choice` is `{dateId}:{ticketTypeId|any}`.
 */
export function WaitlistChoice({
  dates,
  preselected,
  quantity,
  choiceError,
  quantityError,
}: {
  dates: WaitlistDateOption[];
  preselected: string;
  quantity: string;
  choiceError: string | null;
  quantityError: string | null;
}) {
  const options = dates.flatMap((d) => [
    ...(d.maxAny ? [{ value: `${d.id}:any`, label: dates.length > 1 ? `${d.label} · Cualquier entrada` : "Cualquier entrada", max: d.maxAny }] : []),
    ...d.tickets.map((t) => ({ value: `${d.id}:${t.id}`, label: dates.length > 1 ? `${d.label} · ${t.label}` : t.label, max: t.max })),
  ]);
  const selected = options.find((o) => o.value === preselected || o.value.endsWith(`:${preselected}`))?.value ?? options[0]?.value;
  const max = Math.max(1, ...options.map((o) => o.max));
  const choiceErrors = choiceError ? [choiceError] : null;
  const quantityErrors = quantityError ? [quantityError] : null;
  return (
    <>
      {dates.length === 1 ? <p className="text-sm font-medium">{dates[0].label}</p> : null}
      <FieldFrame id="waitlist-choice" label="¿Qué entrada esperás?" errors={choiceErrors}>
        <select id="waitlist-choice" name="choice" defaultValue={selected} className={fieldInputClasses} {...controlAria("waitlist-choice", undefined, choiceErrors)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </FieldFrame>
      <FieldFrame id="waitlist-quantity" label="¿Cuántas?" help="Como máximo las que se pueden comprar por compra de esa entrada." errors={quantityErrors}>
        <select id="waitlist-quantity" name="quantity" defaultValue={quantity} className={fieldInputClasses} {...controlAria("waitlist-quantity", "ayuda", quantityErrors)}>
          {Array.from({ length: max }, (_, i) => String(i + 1)).map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </FieldFrame>
    </>
  );
}
