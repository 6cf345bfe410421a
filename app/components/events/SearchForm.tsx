import { Form, Link } from "@remix-run/react";
import { dateInputAttributes, DATE_HINTS } from "#app/components/ui/dateInputAttributes";
import { isoDayToInput } from "#common/day-input";
import { fieldInputClasses } from "#app/components/ui/Field";

export interface SelectChoice {
  value: string;
  label: string;
}

/** A category chip above the results: a link to the same search with that category (Todos: without one). */
export interface CategoryChip {
  value: string;
  label: string;
  href: string;
  current: boolean;
}

/**
 * Categories as chips: links, so they filter without JavaScript, the current one marked with aria-current. On a
 * phone they scroll sideways in one row (inside their own box: the page never gets wider); from 600 px they wrap.
 */
export function CategoryChips({ chips }: { chips: CategoryChip[] }) {
  return (
    <nav aria-label="Categorías" className="-mx-4 sm:mx-0">
      <ul className="flex gap-2 overflow-x-auto px-4 py-1 [scrollbar-width:none] sm:flex-wrap sm:overflow-visible sm:px-0">
        {chips.map((chip) => (
          <li key={chip.value || "todos"} className="shrink-0">
            <Link
              to={chip.href}
              aria-current={chip.current ? "page" : undefined}
              preventScrollReset
              className={`inline-flex min-h-10 items-center rounded-full border px-3.5 text-sm font-medium transition-colors ${
                chip.current ? "border-primary-500 bg-primary-500 font-bold text-black" : "border-[var(--border)] bg-[var(--surface)] hover:border-primary-500"
              }`}
            >
              {chip.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The home's query string (`/?q=…&provincia=…&categoria=…&desde=…&hasta=…`). */
export interface CatalogueFilterValues {
  q: string;
  provincia: string;
  categoria: string;
  /** yyyy-MM-dd (the form shows dd/mm/aaaa and may send either) */
  desde: string;
  hasta: string;
}

const labelClasses = "text-sm font-medium";

/**
 * Search by name, province, category and dates. A GET form: it works without
 * JavaScript and every search is a link that can be shared. `key` on the
 * inputs makes them show the current search after a client navigation.
 */
export function SearchForm({
  values,
  provinces,
  categories,
}: {
  values: CatalogueFilterValues;
  provinces: SelectChoice[];
  categories: SelectChoice[];
}) {
  const filtered = Boolean(values.provincia || values.categoria || values.desde || values.hasta);
  const any = filtered || Boolean(values.q);
  // A category alone is on view in the chips: the filters stay folded, so the results are not pushed off a phone's screen.
  const openFilters = Boolean(values.provincia || values.desde || values.hasta);
  return (
    <Form method="get" action="/" role="search" aria-label="Buscar eventos" className="flex flex-col gap-3" noValidate>
      <div className="flex gap-2">
        <label htmlFor="buscar-q" className="sr-only">
          Buscar por nombre
        </label>
        <input
          key={`q-${values.q}`}
          id="buscar-q"
          type="search"
          name="q"
          defaultValue={values.q}
          placeholder="Evento, lugar o ciudad"
          enterKeyHint="search"
          autoComplete="off"
          maxLength={100}
          className={`${fieldInputClasses} min-w-0 flex-1`}
        />
        <button
          type="submit"
          className="inline-flex min-h-11 items-center rounded-lg bg-primary-500 px-4 text-sm font-bold text-black hover:bg-primary-400"
        >
          Buscar
        </button>
      </div>
      <details open={openFilters} className="group rounded-lg border border-[var(--border)] bg-[var(--surface)]">
        <summary className="cursor-pointer select-none px-3 py-2.5 text-sm font-medium">
          Filtros{filtered ? " (activos)" : ""}
        </summary>
        <div className="grid grid-cols-2 gap-3 px-3 pb-3">
          <div className="col-span-2 flex flex-col gap-1 sm:col-span-1">
            <label htmlFor="buscar-provincia" className={labelClasses}>
              Provincia
            </label>
            <select key={`p-${values.provincia}`} id="buscar-provincia" name="provincia" defaultValue={values.provincia} className={fieldInputClasses}>
              <option value="">Todas las provincias</option>
              {provinces.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          </div>
          <div className="col-span-2 flex flex-col gap-1 sm:col-span-1">
            <label htmlFor="buscar-categoria" className={labelClasses}>
              Categoría
            </label>
            <select key={`c-${values.categoria}`} id="buscar-categoria" name="categoria" defaultValue={values.categoria} className={fieldInputClasses}>
              <option value="">Todas las categorías</option>
              {categories.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </div>
          <div className="flex min-w-0 flex-col gap-1">
            <label htmlFor="buscar-desde" className={labelClasses}>
              Desde
            </label>
            <input
              key={`d-${values.desde}`}
              id="buscar-desde"
              name="desde"
              defaultValue={isoDayToInput(values.desde)}
              {...dateInputAttributes("date")}
              aria-describedby="buscar-fechas-ayuda"
              className={fieldInputClasses}
            />
          </div>
          <div className="flex min-w-0 flex-col gap-1">
            <label htmlFor="buscar-hasta" className={labelClasses}>
              Hasta
            </label>
            <input
              key={`h-${values.hasta}`}
              id="buscar-hasta"
              name="hasta"
              defaultValue={isoDayToInput(values.hasta)}
              {...dateInputAttributes("date")}
              aria-describedby="buscar-fechas-ayuda"
              className={fieldInputClasses}
            />
          </div>
          <p id="buscar-fechas-ayuda" className="col-span-2 -mt-1 text-xs text-[var(--muted)]">
            {DATE_HINTS.date}
          </p>
          <div className="col-span-2 flex flex-wrap items-center gap-3">
            <button
              type="submit"
              className="inline-flex min-h-11 items-center rounded-lg border border-[var(--border)] px-4 text-sm font-bold hover:border-primary-500"
            >
              Aplicar filtros
            </button>
            {any ? (
              <Link to="/" className="text-sm text-[var(--accent)] underline underline-offset-2">
                Limpiar búsqueda
              </Link>
            ) : null}
          </div>
        </div>
      </details>
    </Form>
  );
}
