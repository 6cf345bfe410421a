import { PROVINCES } from "#common/validation";
import { Checkbox, SelectInput, TextArea, TextInput } from "./forms";
import { DateTimeInput } from "./DateInputs";
import { DATE_HINTS } from "#app/components/ui/DateInput";

export type Option = { value: string; label: string };

export const PAYMENT_METHOD_OPTIONS: Option[] = [
  { value: "MercadoPagoAccount", label: "Mercado Pago" },
  { value: "BankAccount", label: "Transferencia bancaria" },
];

/** Name, category, description and minimum age. */
export function BasicEventFields({ categories }: { categories: readonly Option[] }) {
  return (
    <div className="grid gap-x-4 gap-y-2 sm:grid-cols-2 sm:items-end">
      <TextInput name="name" label="Nombre del evento" required maxLength={120} className="sm:col-span-2" />
      <SelectInput name="category" label="Categoría" options={categories} placeholder="Elegí una categoría" required />
      <TextInput name="minAge" label="Edad mínima" type="number" min={0} max={99} inputMode="numeric" help="0 si es apto para todo público." />
      <TextArea name="description" label="Descripción" className="sm:col-span-2" rows={5} help="Quiénes tocan, qué incluye la entrada, cómo llegar…" />
    </div>
  );
}

export function VenueFields({ coordinates = false, coordinatesWarning = null }: { coordinates?: boolean; coordinatesWarning?: string | null } = {}) {
  return (
    <div className="grid gap-x-4 gap-y-2 sm:grid-cols-2 sm:items-end">
      <TextInput name="venueName" label="Nombre del lugar" required help="Por ejemplo: Club Atlético Fernández Fierro" />
      <TextInput name="venueAddress" label="Dirección" required autoComplete="street-address" />
      <TextInput name="city" label="Ciudad" required autoComplete="address-level2" />
      <SelectInput name="province" label="Provincia" options={PROVINCES} placeholder="Elegí una provincia" required />
      {coordinates ? (
        <>
          {/* The Apple Wallet pass shows up on the lock screen near the venue (docs/wallet.md). */}
          <TextInput name="venueLatitude" label="Latitud (opcional)" inputMode="decimal" help="Por ejemplo -34,6037. En Google Maps, tocá el lugar y copiá el primer número." />
          <TextInput name="venueLongitude" label="Longitud (opcional)" inputMode="decimal" help="Por ejemplo -58,3816: el segundo número." />
          <p className="text-xs text-[var(--muted)] sm:col-span-2">Con la ubicación, el pase de Apple Wallet aparece en la pantalla bloqueada de quien llega al lugar.</p>
          {coordinatesWarning ? (
            <p className="text-sm text-[var(--text)] sm:col-span-2" role="status">
              ⚠️ {coordinatesWarning}
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

/** One date: start, end and doors, as Buenos Aires time. `prefix` is "dates[0]." on the create form, "" on the edit page. */
export function DateFields({ prefix = "" }: { prefix?: string }) {
  return (
    <div className="grid gap-x-4 gap-y-2 sm:grid-cols-3 sm:items-end">
      <DateTimeInput name={`${prefix}startsAt`} label="Empieza" formatHint={false} required />
      <DateTimeInput name={`${prefix}endsAt`} label="Termina" formatHint={false} required />
      <DateTimeInput name={`${prefix}doorsAt`} label="Apertura de puertas (opcional)" formatHint={false} />
      {/* The format once for the three (each input also carries it as placeholder and title). */}
      <p className="text-xs text-[var(--muted)] sm:col-span-3">{DATE_HINTS.datetime}</p>
    </div>
  );
}

/** One ticket type. `prefix` is "ticketTypes[0]." on the create form, "" on the tickets page. */
export function TicketTypeFields({ prefix = "", dates, salesWindow = false }: { prefix?: string; dates?: Option[]; salesWindow?: boolean }) {
  const n = (name: string) => `${prefix}${name}`;
  return (
    <div className="grid gap-x-4 gap-y-2 sm:grid-cols-2 sm:items-end lg:grid-cols-4">
      <TextInput name={n("name")} label="Nombre" required maxLength={80} help="General, VIP, Anticipada…" className="sm:col-span-2" />
      <TextInput name={n("price")} label="Precio en pesos" required inputMode="decimal" help="Por ejemplo 1.500,50. 0 si es gratis." />
      <TextInput name={n("stock")} label="Cantidad (stock)" required type="number" min={0} inputMode="numeric" />
      <TextInput name={n("minPerOrder")} label="Mínimo por compra" type="number" min={1} max={100} inputMode="numeric" />
      <TextInput name={n("maxPerOrder")} label="Máximo por compra" type="number" min={1} max={100} inputMode="numeric" />
      <SelectInput name={n("paymentMethod")} label="Medio de cobro" options={PAYMENT_METHOD_OPTIONS} className="sm:col-span-2" />
      {dates ? (
        <SelectInput name={n("eventDateId")} label="Fecha" options={dates} placeholder="Todas las fechas" className="sm:col-span-2" />
      ) : null}
      <TextInput
        name={n("accessCode")}
        label="Código de acceso (opcional)"
        help="Si lo completás, solo compra quien lo tenga (sin espacios)."
        autoCapitalize="none"
        spellCheck={false}
        className="sm:col-span-2"
      />
      {salesWindow ? (
        <>
          <DateTimeInput name={n("salesStartAt")} label="Venta desde (opcional)" className="sm:col-span-2" />
          <DateTimeInput name={n("salesEndAt")} label="Venta hasta (opcional)" className="sm:col-span-2" />
        </>
      ) : null}
      <TextArea name={n("description")} label="Descripción (opcional)" rows={2} className="sm:col-span-2 lg:col-span-4" />
      <div className="flex flex-col gap-2 sm:col-span-2 lg:col-span-4 sm:flex-row sm:gap-6">
        <Checkbox name={n("hidden")} label="Oculta" help="No aparece en la página del evento; se compra con el código de acceso." />
        <Checkbox name={n("presale")} label="Preventa" help="Solo la ve quien ingresa el código de preventa del evento." />
      </div>
    </div>
  );
}
