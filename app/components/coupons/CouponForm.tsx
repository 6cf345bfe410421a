import { FieldErrors } from "#app/components/ui/Field";
import { Button } from "#app/components/ui/Button";
import { BackofficeForm, FormErrorList, SelectInput, TextInput, useFieldState, useIsPosting } from "#app/components/backoffice/forms";
import { couponFormSchema } from "#app/components/backoffice/schemas";
import type { FormReply } from "#app/components/backoffice/types";
import { DateTimeInput } from "#app/components/backoffice/DateInputs";

/** Input names of the coupon form; the domain's error keys are the same. */
export const COUPON_FORM_FIELDS = new Set(["code", "kind", "percent", "amount", "ticketTypeIds", "maxUses", "validFrom", "validUntil"]);

export const KIND_OPTIONS = [
  { value: "percent", label: "Porcentaje de descuento" },
  { value: "fixed", label: "Monto fijo de descuento" },
] as const;

/**
 * Create and edit a coupon: a plain POST form (works without JavaScript);
 * messages next to each field after the action answers.
 */
export function CouponForm({
  reply,
  defaults,
  tickets,
  submitLabel,
}: {
  reply?: FormReply | null;
  defaults: Record<string, string>;
  tickets: { id: string; name: string }[];
  submitLabel: string;
}) {
  const posting = useIsPosting();
  return (
    <BackofficeForm reply={reply} defaults={defaults} schema={couponFormSchema} method="post" className="flex flex-col gap-4">
      <FormErrorList reply={reply} />
      <div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
        <TextInput
          name="code"
          label="Código"
          help="De 3 a 30 letras, números, guiones o guiones bajos, sin espacios. No distingue mayúsculas."
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={30}
          required
        />
        <SelectInput name="kind" label="Tipo de descuento" options={KIND_OPTIONS} required />
        <TextInput name="percent" label="Porcentaje (1 a 100)" help="Solo si el descuento es un porcentaje. 100 % emite las entradas sin pago." type="number" min={1} max={100} inputMode="numeric" />
        <TextInput name="amount" label="Monto fijo en pesos" help="Solo si el descuento es fijo, por ejemplo 1500 o 1.500,50. Nunca supera el precio de las entradas." inputMode="decimal" />
        <TextInput name="maxUses" label="Límite de usos" help="Cada compra con el cupón es un uso. Vacío: sin límite." type="number" min={1} inputMode="numeric" />
        <div className="hidden sm:block" />
        <DateTimeInput name="validFrom" label="Válido desde" help="Vacío: desde ya." />
        <DateTimeInput name="validUntil" label="Válido hasta" help="Vacío: sin vencimiento." />
      </div>
      <TicketTypeChoices tickets={tickets} />
      <div className="flex justify-end">
        <Button type="submit" pending={posting} pendingLabel="Guardando…">
          {submitLabel}
        </Button>
      </div>
    </BackofficeForm>
  );
}

/** Checkboxes `ticketTypeIds[i]`; none checked = every ticket type of the event. */
function TicketTypeChoices({ tickets }: { tickets: { id: string; name: string }[] }) {
  const { errors, id } = useFieldState("ticketTypeIds");
  const scope = tickets.map((t, i) => ({ ticket: t, name: `ticketTypeIds[${i}]` }));
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={errors?.length ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium">Entradas en las que vale</legend>
      <p className="text-xs text-[var(--muted)]">Si no marcás ninguna, vale para todas las entradas del evento.</p>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        {scope.map(({ ticket, name }) => (
          <TicketChoice key={ticket.id} name={name} ticket={ticket} />
        ))}
      </div>
      {errors?.length ? <FieldErrors id={`${id}-error`} errors={errors} /> : null}
    </fieldset>
  );
}

function TicketChoice({ name, ticket }: { name: string; ticket: { id: string; name: string } }) {
  const { id, value } = useFieldState(name);
  return (
    <label htmlFor={id} className="flex items-center gap-2 text-sm">
      <input id={id} type="checkbox" name={name} value={ticket.id} defaultChecked={value === ticket.id} className="size-4 accent-primary-500" />
      {ticket.name}
    </label>
  );
}

/** The form's values for a coupon being edited (or the defaults of a new one). */
export function couponFormDefaults(
  coupon: { code: string; kind: string; value: number; maxUses: number | null; validFrom: string; validUntil: string; ticketTypeIds: string[] } | null,
  tickets: { id: string }[],
  centavosToInput: (c: number) => string,
): Record<string, string> {
  if (!coupon) return { kind: "percent" };
  const values: Record<string, string> = {
    code: coupon.code,
    kind: coupon.kind,
    percent: coupon.kind === "percent" ? String(coupon.value) : "",
    amount: coupon.kind === "fixed" ? centavosToInput(coupon.value) : "",
    maxUses: coupon.maxUses === null ? "" : String(coupon.maxUses),
    validFrom: coupon.validFrom,
    validUntil: coupon.validUntil,
  };
  tickets.forEach((t, i) => {
    if (coupon.ticketTypeIds.includes(t.id)) values[`ticketTypeIds[${i}]`] = t.id;
  });
  return values;
}
