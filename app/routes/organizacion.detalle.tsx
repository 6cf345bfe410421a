import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { getOrganizationForMember, updateOrganization, updateOrganizationSchema } from "#server/organizations/organizations";
import { formatCuit } from "#common/cuit";
import {
  acceptImageUpload,
  failedReply,
  formReply,
  guard,
  readForm,
  requireOrganization,
  SAVE_ERROR,
  savedRedirect,
  schemaErrors,
} from "#app/lib/backoffice.server";
import { BackofficeForm, FormErrorList, FormSnackbar, useIsPosting, useRemountKey } from "#app/components/backoffice/forms";
import { organizationFormSchema } from "#app/components/backoffice/schemas";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { OrganizationFields } from "#app/components/backoffice/OrganizationFields";
import { BO } from "#app/components/backoffice/nav";
import type { FormReply } from "#app/components/backoffice/types";
import { Button } from "#app/components/ui/Button";
import { PassColorFields } from "#app/components/backoffice/PassColorFields";
import { checkPassColors } from "#common/pass-colors";
import { z } from "zod";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Datos de la organización · Tribuna" }];

const FIELDS = ["name", "slug", "cuit", "contactEmail", "contactPhone", "description", "logoUrl", "passBackgroundColor", "passTextColor"] as const;

/** The organization's fields and the passes' colours, checked in the browser as the domain does (common/pass-colors.ts). */
const detailFormSchema = organizationFormSchema
  .extend({ passBackgroundColor: z.string().optional(), passTextColor: z.string().optional() })
  .superRefine((v, issue) => {
    const check = checkPassColors(v.passBackgroundColor, v.passTextColor);
    if (!check.ok) issue.addIssue({ code: "custom", path: [check.field], message: check.message });
  });

/** Owners and admins edit the organization (others get the 403 page). */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "organization:manage");
  const organization = await guard(() => getOrganizationForMember(bo.ctx, bo.organization.id));
  return data(
    {
      organization: {
        id: organization.id,
        name: organization.name,
        slug: organization.slug,
        cuit: organization.cuit ? formatCuit(organization.cuit) : "",
        contactEmail: organization.contactEmail ?? "",
        contactPhone: organization.contactPhone ?? "",
        description: organization.description ?? "",
        logoUrl: organization.logoUrl ?? "",
        passBackgroundColor: organization.passBackgroundColor ?? "",
        passTextColor: organization.passTextColor ?? "",
      },
      query: bo.query(),
    },
    { headers: bo.headers },
  );
}

/** `updateOrganization`; the domain checks the role again. */
export async function action({ request }: ActionFunctionArgs) {
  const bo = await requireOrganization(request);
  const form = await readForm(request);
  const { values, errors: imageErrors } = await acceptImageUpload(bo.ctx, form, "logo", "logoUrl");
  const input = { id: values.id ?? "", ...Object.fromEntries(FIELDS.map((name) => [name, values[name] ?? ""])) };
  if (Object.keys(imageErrors).length) {
    const reply = formReply(values, { errors: { ...schemaErrors(updateOrganizationSchema, input), ...imageErrors }, snackbar: { type: "error", message: SAVE_ERROR } });
    return data(reply, { status: 400, headers: bo.headers });
  }
  try {
    await updateOrganization(bo.ctx, input);
  } catch (error) {
    return failedReply(error, values, { headers: bo.headers, fields: (key) => (FIELDS as readonly string[]).includes(key) });
  }
  return savedRedirect(`${BO.detail}${bo.query()}`, bo.headers);
}

export default function OrganizationDetailPage() {
  const { organization } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const posting = useIsPosting();
  const key = useRemountKey(reply, organization);
  return (
    <BackofficePage
      narrow
      title="Datos de la organización"
      lead={
        <>
          Lo que ven quienes compran en tu página pública,{" "}
          <a className="text-[var(--accent)] underline underline-offset-2" href={`/${organization.slug}`}>
            tribuna.ar/{organization.slug}
          </a>
          .
        </>
      }
    >
      <Card>
        <BackofficeForm reply={reply} defaults={organization} schema={detailFormSchema} key={key} method="post" encType="multipart/form-data" className="flex flex-col gap-2">
          <input type="hidden" name="id" value={organization.id} />
          <FormErrorList reply={reply} />
          <OrganizationFields slugHelp="Si lo cambiás, el link anterior deja de funcionar." />
          <PassColorFields saved={organization.passBackgroundColor && organization.passTextColor ? { background: organization.passBackgroundColor, text: organization.passTextColor } : null} />
          <div className="mt-2 flex justify-end">
            <Button type="submit" pending={posting} pendingLabel="Guardando…">
              Guardar cambios
            </Button>
          </div>
        </BackofficeForm>
      </Card>
      <FormSnackbar snackbar={reply?.snackbar} />
    </BackofficePage>
  );
}
