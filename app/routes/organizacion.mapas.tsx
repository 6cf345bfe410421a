import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { formatDateTime } from "#common/dates";
import { createSeatMap, importSeatMap, listSeatMapsWithUsage, MAX_PRETIX_UPLOAD_BYTES } from "#server/seating/maps";
import { failedReply, guard, readForm, requireOrganization, savedRedirect } from "#app/lib/backoffice.server";
import { BackofficeForm, FormErrorList, FormSnackbar, SelectInput, TextInput, useIsPosting } from "#app/components/backoffice/forms";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card, EmptyState } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import type { FormReply } from "#app/components/backoffice/types";
import { BLOCK_DEFAULTS, BlockFields, FRONT_OPTIONS } from "#app/components/seating-editor/fields";
import { Button } from "#app/components/ui/Button";
import { FileInput } from "#app/components/ui/FileInput";
import { ScrollTable } from "#app/components/ui/ScrollTable";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Mapas de asientos · Tribuna" }];

/** The organization's seat maps (docs/seating.md): the list, a new map in one step, and pretix's files in and out. */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "events:manage");
  const maps = await guard(() => listSeatMapsWithUsage(bo.ctx, bo.organization.id));
  bo.headers.set("Cache-Control", "private, no-store");
  return data(
    {
      maps: maps.map((m) => ({ id: m.id, name: m.name, seats: m.seats, sections: m.sections, version: m.version, updatedAt: formatDateTime(m.updatedAt), events: m.events })),
      maxUploadMb: MAX_PRETIX_UPLOAD_BYTES / 1024 / 1024,
    },
    { headers: bo.headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const { values, files } = await readForm(request);
  const editor = (id: string) => `${BO.seatMap(id)}${bo.query()}`;
  const intent = values.intent === "import" ? "import" : "create";
  try {
    if (intent === "import") {
      const { map, warnings } = await importSeatMap(bo.ctx, { organizationId: bo.organization.id, file: files.file });
      const said = warnings.length ? ` Tené en cuenta: ${warnings.slice(0, 3).join(" ")}${warnings.length > 3 ? ` Y ${warnings.length - 3} avisos más.` : ""}` : "";
      return savedRedirect(editor(map.id), bo.headers, `Importamos «${map.name}» de pretix.${said}`);
    }
    const map = await createSeatMap(bo.ctx, { ...values, organizationId: bo.organization.id });
    return savedRedirect(editor(map.id), bo.headers, `Creamos el mapa «${map.name}».`);
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, target: intent, fields: (key) => (intent === "import" ? key === "file" : key !== "_form" && key !== "organizationId") });
  }
}

export default function SeatMapsPage() {
  const { maps, maxUploadMb } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const href = useBackofficeHref();
  const posting = useIsPosting();
  const fileErrors = reply?.target === "import" ? reply.errors.file : undefined;
  return (
    <BackofficePage title="Mapas de asientos" lead="Las salas de tu organización con sus sectores, filas y asientos. Un mapa lo pueden usar varios eventos; cada evento elige qué tipo de entrada vende cada categoría.">
      <div className="flex flex-col gap-6">
        <Card title="Tus mapas">
          {maps.length ? (
            <ScrollTable label="Mapas de asientos" surface>
              <table className="w-full text-left text-sm">
                <thead>
                  <tr className="border-b border-[var(--border)]">
                    <th scope="col" className="py-2 pr-4">Nombre</th>
                    <th scope="col" className="py-2 pr-4">Asientos</th>
                    <th scope="col" className="py-2 pr-4">Versión</th>
                    <th scope="col" className="py-2 pr-4">Lo usan</th>
                    <th scope="col" className="py-2">
                      <span className="sr-only">Acciones</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {maps.map((map) => (
                    <tr key={map.id} className="border-b border-[var(--border)] align-top last:border-0">
                      <th scope="row" className="py-2 pr-4 font-bold">
                        <Link to={href(BO.seatMap(map.id))} className="text-primary-700 underline dark:text-primary-400">
                          {map.name}
                        </Link>
                      </th>
                      <td className="py-2 pr-4 tabular-nums">
                        {map.seats.toLocaleString("es-AR")} en {map.sections} {map.sections === 1 ? "sector" : "sectores"}
                      </td>
                      <td className="py-2 pr-4">
                        {map.version} · {map.updatedAt}
                      </td>
                      <td className="py-2 pr-4">{map.events.length ? map.events.map((e) => e.name).join(", ") : <span className="text-[var(--muted)]">Ningún evento</span>}</td>
                      <td className="py-2 whitespace-nowrap">
                        <Link to={href(BO.seatMap(map.id))} className="mr-3 font-bold text-primary-700 underline dark:text-primary-400">
                          Editar<span className="sr-only"> {map.name}</span>
                        </Link>
                        <a href={href(BO.seatMapExport(map.id))} download className="font-bold text-primary-700 underline dark:text-primary-400">
                          Exportar a pretix<span className="sr-only"> {map.name}</span>
                        </a>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollTable>
          ) : (
            <EmptyState>Todavía no tenés mapas. Creá uno abajo o importalo de pretix.</EmptyState>
          )}
        </Card>

        <Card title="Nuevo mapa">
          <p className="mb-4 text-sm text-[var(--muted)]">Empezá con el nombre de la sala, de qué lado está el escenario y un primer bloque de filas. Después, en el editor, agregás más sectores y categorías.</p>
          <BackofficeForm reply={reply} target="create" idPrefix="nuevo" defaults={{ front: "top", category: "General", color: "#2563eb", sectionName: "Platea", ...BLOCK_DEFAULTS }} method="post" className="flex flex-col gap-2">
            <FormErrorList />
            <div className="grid gap-x-4 sm:grid-cols-2">
              <TextInput name="name" label="Nombre del mapa" maxLength={120} required placeholder="Teatro del Pasaje" />
              <SelectInput name="front" label="Escenario" options={FRONT_OPTIONS} required />
              <TextInput name="category" label="Primera categoría" maxLength={60} required help="Un nivel de precio: Platea, Pullman, VIP." />
              <TextInput name="color" label="Color de la categoría" type="color" className="max-w-32" />
            </div>
            <BlockFields />
            <div>
              <Button type="submit" name="intent" value="create" pending={posting} pendingLabel="Creando…">
                Crear mapa
              </Button>
            </div>
          </BackofficeForm>
        </Card>

        <Card title="Importar de pretix">
          <BackofficeForm reply={reply} target="import" idPrefix="importar" defaults={{}} method="post" encType="multipart/form-data" className="flex flex-col gap-3">
            <FormErrorList />
            <label htmlFor="pretix-file" className="font-medium">
              Plano de pretix (JSON)
            </label>
            <FileInput
              id="pretix-file"
              name="file"
              accept=".json,application/json"
              buttonLabel="Elegir el archivo"
              required
              aria-describedby={fileErrors?.length ? "pretix-file-help pretix-file-error" : "pretix-file-help"}
              aria-invalid={fileErrors?.length ? true : undefined}
            />
            <p id="pretix-file-help" className="text-sm text-[var(--muted)]">
              {`El archivo que baja el editor de planos de pretix. Hasta ${maxUploadMb} MB. Los asientos conservan su identificador, así que lo podés volver a exportar.`}
            </p>
            {fileErrors?.length ? (
              <div id="pretix-file-error" className="text-sm text-red-700 dark:text-red-400" aria-live="polite">
                <p className="font-bold">No pudimos importar el archivo:</p>
                <ul className="list-disc pl-5">
                  {fileErrors.map((message) => (
                    <li key={message}>{message}</li>
                  ))}
                </ul>
              </div>
            ) : null}
            <div>
              <Button type="submit" name="intent" value="import" variant="secondary" pending={posting} pendingLabel="Importando…">
                Importar
              </Button>
            </div>
          </BackofficeForm>
        </Card>
      </div>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
