import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTime } from "#common/dates";
import { editSeatMap, getSeatMapWithUsage } from "#server/seating/maps";
import { failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, FormErrorList, FormSnackbar, SelectInput, TextInput } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { BLOCK_DEFAULTS, BlockFields, FRONT_OPTIONS, NUMBERING_OPTIONS } from "#app/components/seating-editor/fields";
import { PlanPreview } from "#app/components/seating-editor/PlanPreview";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { ScrollTable } from "#app/components/ui/ScrollTable";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.map.name ?? "Mapa de asientos"} · Tribuna` }];

/** The inputs the editor's forms draw: a message about any other key goes above its form. */
const INPUTS = new Set(["capacity", "width", "height", "name", "front", "color", "rows", "seatsPerRow", "firstRowLabel", "numbering", "startNumber", "curve", "rowOffset", "gaps", "x", "y", "category", "sectionName", "row", "seats", "accessible", "restrictedView", "dx", "dy"]);

/**
 * The seat map editor (docs/seating.md): every change is a plain form that names one operation of
 * common/seating-editor.ts; the server applies it to the version this page opened and saves it
 * (editSeatMap), so it works without JavaScript and a save over someone else's answers CONFLICT.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "events:manage");
  const { map, summary: usage } = await guard(() => getSeatMapWithUsage(bo.ctx, bo.organization.id, params.mapId ?? ""));
  const plan = map.plan;
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      map: { id: map.id, name: map.name, version: map.version, updatedAt: formatDateTime(map.updatedAt), seats: usage.seats, events: usage.events },
      plan,
      sections: plan.sections.map((section) => ({
        id: section.id,
        name: section.name,
        kind: section.kind,
        capacity: section.standing?.capacity ?? null,
        rows: section.rows.map((row, index) => ({
          index,
          label: row.label,
          seats: row.seats.length,
          numbers: numberRange(row.seats.map((s) => s.number)),
          categories: [...new Set(row.seats.map((s) => s.category))].join(", "),
          accessible: row.seats.filter((s) => s.accessible).map((s) => s.number),
          restricted: row.seats.filter((s) => s.restrictedView).map((s) => s.number),
        })),
      })),
    },
    { headers: bo.headers },
  );
}

function numberRange(numbers: string[]): string {
  if (!numbers.length) return "";
  const sorted = [...numbers].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  return sorted.length === 1 ? sorted[0]! : `${sorted[0]} a ${sorted[sorted.length - 1]}`;
}

export async function action({ request, params }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values } = await readForm(request);
  const { intent, version, ...edit } = values;
  const target = `${intent ?? ""}:${values.from ?? (intent === "add-block" ? "" : (values.sectionId ?? ""))}`;
  try {
    await editSeatMap(bo.ctx, { id: params.mapId ?? "", organizationId: bo.organization.id, version, edit: { ...edit, op: intent } });
  } catch (error) {
    return failedReply(error, values, {
      headers: bo.headers,
      target,
      mapKey: (key) => key.replace(/^edit\./, ""),
      fields: (key) => INPUTS.has(key) || (intent === "add-block" && key === "sectionId"),
    });
  }
  const url = new URL(request.url);
  return savedRedirect(`${url.pathname}${url.search}`, bo.headers, "Guardamos el mapa.");
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

export default function SeatMapEditorPage() {
  const { map, plan, sections } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  const categories = plan.categories.map((c) => ({ value: c.name, label: c.name }));
  const numbered = sections.filter((s) => s.kind === "numbered").map((s) => ({ value: s.id, label: s.name }));
  const version = String(map.version);
  return (
    <BackofficePage
      title={map.name}
      lead={`${map.seats.toLocaleString("es-AR")} asientos · versión ${map.version}, guardada ${map.updatedAt}${map.events.length ? ` · Lo usan: ${map.events.map((e) => e.name).join(", ")}` : ""}`}
      actions={
        <>
          <Link to={href(BO.seatMaps)} className={buttonClasses("secondary")}>
            Todos los mapas
          </Link>
          <a href={href(BO.seatMapExport(map.id))} download className={buttonClasses("secondary")}>
            Exportar a pretix
          </a>
        </>
      }
    >
      {reply?.snackbar?.type === "error" && reply.formErrors.some((m) => m.startsWith("Alguien más guardó")) ? (
        <p role="alert" className="mb-4 rounded-lg border border-red-500 bg-red-50 px-4 py-3 text-sm text-red-900 dark:bg-red-950/40 dark:text-red-100">
          {reply.formErrors.find((m) => m.startsWith("Alguien más guardó"))}{" "}
          <Link to={href(BO.seatMap(map.id))} className="font-bold underline" reloadDocument>
            Abrir la versión nueva
          </Link>
        </p>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="flex flex-col gap-6">
          <Card title="Vista previa">
            <PlanPreview plan={plan} />
            <Legend categories={plan.categories} />
          </Card>
          {sections.map((section) => (
            <SectionCard key={section.id} section={section} categories={categories} reply={reply} version={version} />
          ))}
        </div>
        <div className="flex flex-col gap-6">
          <Card title="Datos del mapa">
            <BackofficeForm reply={reply} target="details:" idPrefix="datos" defaults={{ name: plan.name, front: plan.front ?? "top" }} method="post" className="flex flex-col gap-2">
              <FormErrorList />
              <input type="hidden" name="version" value={version} />
              <TextInput name="name" label="Nombre" maxLength={120} required />
              <SelectInput name="front" label="Escenario" options={FRONT_OPTIONS} required help="Los mejores disponibles llenan primero las filas más cerca del escenario." />
              <div>
                <Button type="submit" name="intent" value="details">
                  Guardar datos
                </Button>
              </div>
            </BackofficeForm>
          </Card>

          <Card title="Categorías">
            <p className="mb-3 text-sm text-[var(--muted)]">Los niveles de precio del mapa. Cada evento elige qué tipo de entrada vende cada una.</p>
            <ul className="flex flex-col gap-3">
              {plan.categories.map((category, i) => (
                <li key={category.name}>
                  <BackofficeForm reply={reply} target={`update-category:${category.name}`} idPrefix={`categoria-${i}`} defaults={{ name: category.name, color: category.color ?? "#6b7280" }} method="post" className="flex flex-wrap items-end gap-x-3">
                    <FormErrorList />
                    <input type="hidden" name="version" value={version} />
                    <input type="hidden" name="from" value={category.name} />
                    <TextInput name="name" label="Nombre" maxLength={60} required className="min-w-40 flex-1" />
                    <TextInput name="color" label="Color" type="color" className="w-20" />
                    <Button type="submit" name="intent" value="update-category" variant="secondary" className="mb-6">
                      Guardar<span className="sr-only"> {category.name}</span>
                    </Button>
                  </BackofficeForm>
                </li>
              ))}
            </ul>
            <BackofficeForm reply={reply} target="add-category:" idPrefix="categoria-nueva" defaults={{ color: "#059669" }} method="post" className="mt-4 flex flex-wrap items-end gap-x-3 border-t border-[var(--border)] pt-4">
              <FormErrorList />
              <input type="hidden" name="version" value={version} />
              <TextInput name="name" label="Categoría nueva" maxLength={60} required className="min-w-40 flex-1" placeholder="Pullman" />
              <TextInput name="color" label="Color" type="color" className="w-20" />
              <Button type="submit" name="intent" value="add-category" variant="secondary" className="mb-6">
                Agregar categoría
              </Button>
            </BackofficeForm>
          </Card>

          <Card title="Agregar bloque">
            <p className="mb-3 text-sm text-[var(--muted)]">Varias filas de asientos de una vez, en un sector nuevo o al final de uno que ya tenés.</p>
            {categories.length ? (
              <BackofficeForm reply={reply} target="add-block:" idPrefix="bloque" defaults={{ ...BLOCK_DEFAULTS, category: categories[0]!.value }} method="post" className="flex flex-col gap-2">
                <FormErrorList />
                <input type="hidden" name="version" value={version} />
                <BlockFields categories={categories} sections={numbered} />
                <div>
                  <Button type="submit" name="intent" value="add-block">
                    Agregar bloque
                  </Button>
                </div>
              </BackofficeForm>
            ) : (
              <p className="text-sm">Agregá primero una categoría.</p>
            )}
          </Card>

          {categories.length ? (
            <Card title="Agregar sector de pie">
              <p className="mb-3 text-sm text-[var(--muted)]">Un campo o una zona sin asientos numerados: se dibuja como un rectángulo y se vende por cantidad, con un tipo de entrada general.</p>
              <BackofficeForm reply={reply} target="add-standing:" idPrefix="de-pie" defaults={{ name: "Campo", category: categories[0]!.value, capacity: "", width: "300", height: "120" }} method="post" className="flex flex-col gap-2">
                <FormErrorList />
                <input type="hidden" name="version" value={version} />
                <div className="grid gap-x-4 sm:grid-cols-2">
                  <TextInput name="name" label="Nombre del sector" maxLength={60} required />
                  <SelectInput name="category" label="Categoría" options={categories} required />
                  <TextInput name="capacity" label="Capacidad (personas)" inputMode="numeric" required />
                  <TextInput name="width" label="Ancho del dibujo" inputMode="decimal" required />
                  <TextInput name="height" label="Alto del dibujo" inputMode="decimal" required />
                  <TextInput name="x" label="Posición horizontal" inputMode="decimal" help="Vacío: alineado a la izquierda de lo que ya hay." />
                  <TextInput name="y" label="Posición vertical" inputMode="decimal" help="Vacío: debajo de lo que ya hay." />
                </div>
                <div>
                  <Button type="submit" name="intent" value="add-standing" variant="secondary">
                    Agregar sector de pie
                  </Button>
                </div>
              </BackofficeForm>
            </Card>
          ) : null}
        </div>
      </div>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}

function Legend({ categories }: { categories: { name: string; color?: string }[] }) {
  return (
    <ul className="mt-4 flex flex-wrap gap-x-4 gap-y-2 text-sm" aria-label="Referencias">
      {categories.map((c) => (
        <li key={c.name} className="flex items-center gap-2">
          <span className="inline-block size-4 rounded-full border border-[var(--border)]" style={{ background: c.color ?? "#6b7280" }} aria-hidden="true" />
          {c.name}
        </li>
      ))}
      <li className="flex items-center gap-2">
        <span className="inline-block size-4 rounded-sm bg-[var(--muted)]" aria-hidden="true" />
        Silla de ruedas (cuadrado)
      </li>
      <li className="flex items-center gap-2">
        <span className="inline-block size-4 rounded-full border-2 border-dashed border-[var(--text)]" aria-hidden="true" />
        Visión reducida (borde punteado)
      </li>
    </ul>
  );
}

type Section = Loaded["sections"][number];

function SectionCard({ section, categories, reply, version }: { section: Section; categories: { value: string; label: string }[]; reply?: FormReply; version: string }) {
  const rowOptions = [{ value: "", label: "Todas las filas" }, ...section.rows.map((r) => ({ value: String(r.index), label: `Fila ${r.label}` }))];
  const prefix = `sector-${section.id.slice(0, 8)}`;
  const common = (op: string) => ({ reply, target: `${op}:${section.id}`, idPrefix: `${prefix}-${op}`, method: "post" as const, className: "flex flex-col gap-1 rounded-xl border border-[var(--border)] p-3" });
  const hidden = (
    <>
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="sectionId" value={section.id} />
    </>
  );
  const seatsHelp = "Opcional: números de la fila, como 1-4, 9. Vacío: todos.";
  return (
    <Card title={section.kind === "standing" ? `${section.name} (de pie, ${section.capacity} personas)` : section.name}>
      {section.kind === "numbered" ? (
        <ScrollTable label={`Filas de ${section.name}`} surface className="mb-4">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-[var(--border)]">
                <th scope="col" className="py-1 pr-3">Fila</th>
                <th scope="col" className="py-1 pr-3">Asientos</th>
                <th scope="col" className="py-1 pr-3">Números</th>
                <th scope="col" className="py-1 pr-3">Categoría</th>
                <th scope="col" className="py-1">Marcas</th>
              </tr>
            </thead>
            <tbody>
              {section.rows.map((row) => (
                <tr key={row.index} className="border-b border-[var(--border)] last:border-0">
                  <th scope="row" className="py-1 pr-3">{row.label}</th>
                  <td className="py-1 pr-3 tabular-nums">{row.seats}</td>
                  <td className="py-1 pr-3">{row.numbers}</td>
                  <td className="py-1 pr-3">{row.categories}</td>
                  <td className="py-1">
                    {[row.accessible.length ? `Silla de ruedas: ${row.accessible.join(", ")}` : "", row.restricted.length ? `Visión reducida: ${row.restricted.join(", ")}` : ""].filter(Boolean).join(" · ") || "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      ) : null}
      <div className="grid gap-3 xl:grid-cols-2">
        {section.kind === "numbered" ? (
          <>
            <BackofficeForm {...common("renumber")} defaults={{ numbering: "ltr", startNumber: "1" }}>
              <h3 className="font-bold">Numerar</h3>
              <FormErrorList />
              {hidden}
              <SelectInput name="row" label="Filas" options={rowOptions} />
              <SelectInput name="numbering" label="Numeración" options={NUMBERING_OPTIONS} required />
              <TextInput name="startNumber" label="Primer número" inputMode="numeric" />
              <TextInput name="firstRowLabel" label="Renombrar las filas desde" maxLength={6} help="Opcional, con todas las filas: A o 1." />
              <div>
                <Button type="submit" name="intent" value="renumber" variant="secondary">
                  Numerar<span className="sr-only"> {section.name}</span>
                </Button>
              </div>
            </BackofficeForm>
            <BackofficeForm {...common("mark")} defaults={{}}>
              <h3 className="font-bold">Marcar asientos</h3>
              <FormErrorList />
              {hidden}
              <SelectInput name="row" label="Filas" options={rowOptions} />
              <TextInput name="seats" label="Asientos" help={seatsHelp} />
              <SelectInput name="accessible" label="Silla de ruedas" options={MARK_OPTIONS} />
              <SelectInput name="restrictedView" label="Visión reducida" options={MARK_OPTIONS} />
              <div>
                <Button type="submit" name="intent" value="mark" variant="secondary">
                  Aplicar marcas<span className="sr-only"> en {section.name}</span>
                </Button>
              </div>
            </BackofficeForm>
            <BackofficeForm {...common("category")} defaults={{ category: categories[0]?.value ?? "" }}>
              <h3 className="font-bold">Cambiar categoría</h3>
              <FormErrorList />
              {hidden}
              <SelectInput name="row" label="Filas" options={rowOptions} />
              <TextInput name="seats" label="Asientos" help={seatsHelp} />
              <SelectInput name="category" label="Categoría" options={categories} required />
              <div>
                <Button type="submit" name="intent" value="category" variant="secondary">
                  Cambiar categoría<span className="sr-only"> en {section.name}</span>
                </Button>
              </div>
            </BackofficeForm>
          </>
        ) : null}
        <BackofficeForm {...common("move")} defaults={{ dx: "0", dy: "0" }}>
          <h3 className="font-bold">Mover el sector</h3>
          <FormErrorList />
          {hidden}
          <TextInput name="dx" label="A la derecha (negativo: a la izquierda)" inputMode="decimal" />
          <TextInput name="dy" label="Hacia abajo (negativo: hacia arriba)" inputMode="decimal" />
          <div>
            <Button type="submit" name="intent" value="move" variant="secondary">
              Mover<span className="sr-only"> {section.name}</span>
            </Button>
          </div>
        </BackofficeForm>
        <BackofficeForm {...common("remove")} defaults={{}}>
          <h3 className="font-bold">Borrar</h3>
          <FormErrorList />
          {hidden}
          {section.kind === "numbered" ? (
            <>
              <SelectInput name="row" label="Filas" options={rowOptions} />
              <TextInput name="seats" label="Asientos" help="Vacío con todas las filas: se borra el sector entero." />
            </>
          ) : (
            <p className="text-sm">Se borra el sector entero.</p>
          )}
          <div>
            <Button type="submit" name="intent" value="remove" variant="danger">
              Borrar<span className="sr-only"> de {section.name}</span>
            </Button>
          </div>
        </BackofficeForm>
      </div>
    </Card>
  );
}

const MARK_OPTIONS = [
  { value: "", label: "Sin cambios" },
  { value: "si", label: "Poner" },
  { value: "no", label: "Sacar" },
];
