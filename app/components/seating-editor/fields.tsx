import { SelectInput, TextInput } from "#app/components/backoffice/forms";

/** How a row's seats get their numbers (common/seating-editor.ts SeatNumbering), as the organizer reads it. */
export const NUMBERING_OPTIONS = [
  { value: "ltr", label: "De izquierda a derecha (1, 2, 3…)" },
  { value: "rtl", label: "De derecha a izquierda (1, 2, 3…)" },
  { value: "odd-even", label: "Pares e impares desde el centro (…4 2 1 3…)" },
] as const;

export const FRONT_OPTIONS = [
  { value: "top", label: "Arriba" },
  { value: "bottom", label: "Abajo" },
  { value: "left", label: "A la izquierda" },
  { value: "right", label: "A la derecha" },
] as const;

/** A block of rows and seats (addSeatBlock): inside a BackofficeForm or FormScope. */
export function BlockFields({ categories, sections }: { categories?: { value: string; label: string }[]; sections?: { value: string; label: string }[] }) {
  return (
    <div className="grid gap-x-4 sm:grid-cols-2">
      {sections ? (
        <SelectInput name="sectionId" label="Sector" options={[{ value: "", label: "Un sector nuevo" }, ...sections]} help="Uno que ya tiene filas, o uno nuevo con el nombre de abajo." />
      ) : null}
      <TextInput name="sectionName" label={sections ? "Nombre del sector nuevo" : "Nombre del sector"} maxLength={60} placeholder="Platea" />
      {categories ? <SelectInput name="category" label="Categoría de los asientos" options={categories} required /> : null}
      <TextInput name="rows" label="Filas" inputMode="numeric" required />
      <TextInput name="seatsPerRow" label="Asientos por fila" inputMode="numeric" required />
      <TextInput name="firstRowLabel" label="Primera fila" help="Una letra (A, B…) o un número (1, 2…): las demás siguen." maxLength={6} required />
      <SelectInput name="numbering" label="Numeración" options={NUMBERING_OPTIONS} required help="Izquierda y derecha como se ven en la vista previa." />
      <TextInput name="startNumber" label="Primer número" inputMode="numeric" />
      <TextInput name="gaps" label="Pasillos después de los asientos" help="Opcional: por ejemplo 10, 20 (contando desde la izquierda)." />
      <TextInput name="curve" label="Curva" inputMode="decimal" help="Cuánto se adelantan los extremos de la primera fila; 0 es recta." />
      <TextInput name="rowOffset" label="Corrimiento de filas pares" inputMode="decimal" help="Opcional: para intercalar los asientos de una fila con la de adelante." />
      <TextInput name="x" label="Posición horizontal" inputMode="decimal" help="Vacío: alineado a la izquierda de lo que ya hay." />
      <TextInput name="y" label="Posición vertical" inputMode="decimal" help="Vacío: debajo de lo que ya hay." />
    </div>
  );
}

export const BLOCK_DEFAULTS = { rows: "10", seatsPerRow: "20", firstRowLabel: "A", numbering: "ltr", startNumber: "1", curve: "0", rowOffset: "" } as const;
