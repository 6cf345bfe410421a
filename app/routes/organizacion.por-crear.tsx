import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { createOrganization, createOrganizationSchema } from "#server/organizations/organizations";
import {
  acceptImageUpload,
  failedReply,
  formReply,
  readForm,
  requireBackoffice,
  SAVE_ERROR,
  savedRedirect,
  schemaErrors,
} from "#app/lib/backoffice.server";
import { BackofficeForm, FormErrorList, FormSnackbar, useIsPosting, useRemountKey } from "#app/components/backoffice/forms";
import { organizationFormSchema } from "#app/components/backoffice/schemas";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { OrganizationFields, suggestSlugOnInput } from "#app/components/backoffice/OrganizationFields";
import { suggestSlug } from "#app/components/backoffice/format";
import { BO } from "#app/components/backoffice/nav";
import type { FormReply } from "#app/components/backoffice/types";
import { Button } from "#app/components/ui/Button";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Crear organización · Tribuna" }];

const FIELDS = ["name", "slug", "cuit", "contactEmail", "contactPhone", "description", "logoUrl"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireBackoffice(request, { allowNoOrganization: true });
  return data({ hasOrganizations: bo.organizations.length > 0 }, { headers: bo.headers });
}

/** `createOrganization`: the user becomes its owner and a producer, then lands on the summary. */
export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireBackoffice(request, { allowNoOrganization: true });
  const form = await readForm(request);
  const { values, errors: imageErrors } = await acceptImageUpload(bo.ctx, form, "logo", "logoUrl");
  const input = Object.fromEntries(FIELDS.map((name) => [name, values[name] ?? ""]));
  if (Object.keys(imageErrors).length) {
    const reply = formReply(values, {
      errors: { ...schemaErrors(createOrganizationSchema, input), ...imageErrors },
      snackbar: { type: "error", message: SAVE_ERROR },
    });
    return data(reply, { status: 400, headers: bo.headers });
  }
  try {
    const organization = await createOrganization(bo.ctx, input);
    return savedRedirect(`${BO.summary}?organizationId=${organization.id}`, bo.headers);
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, fields: (key) => (FIELDS as readonly string[]).includes(key) });
  }
}

export default function CreateOrganizationPage() {
  const { hasOrganizations } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const posting = useIsPosting();
  const key = useRemountKey(reply);
  return (
    <BackofficePage
      narrow
      title={hasOrganizations ? "Crear otra organización" : "Creá tu organización"}
      lead={
        hasOrganizations
          ? "Cada organización tiene sus propios eventos, su equipo y su página pública."
          : "Para publicar eventos y vender entradas necesitás una organización: la productora, el club o el espacio que organiza. Vas a ser su dueño/a y después podés sumar a tu equipo."
      }
    >
      <Card>
        <BackofficeForm reply={reply} schema={organizationFormSchema} key={key} method="post" encType="multipart/form-data" className="flex flex-col gap-2" onInput={suggestSlugOnInput(suggestSlug)}>
          <FormErrorList reply={reply} />
          <OrganizationFields slugHelp="Tu página va a ser tribuna.ar/tu-link. Si lo dejás vacío lo armamos con el nombre." />
          <div className="mt-2 flex justify-end">
            <Button type="submit" pending={posting} pendingLabel="Creando…">
              Crear organización
            </Button>
          </div>
        </BackofficeForm>
      </Card>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
