import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { fieldsToComplete, getUserById, updateUser } from "#server/accounts/users";
import type { Ctx } from "#server/context";
import { SAVE_ERROR, SAVE_SUCCESS, Unauthenticated } from "#server/errors";
import { withFlash } from "#app/lib/flash.server";
import { domainErrorReply, invalidReply, mergeHeaders } from "#app/lib/forms.server";
import { consumeReturnPath, requireUser } from "#app/lib/session.server";
import { AccountPage } from "#app/components/account/AccountPage";
import { FormSnackbar, type SnackbarMessage } from "#app/components/ui/FormSnackbar";
import { FormErrors } from "#app/components/account/Notice";
import { ProfileFields } from "#app/components/account/ProfileFields";
import { COMPLETABLE_FIELDS, completeProfileSchema, isCompletableField, type CompletableField } from "#app/components/account/schemas";
import { useAccountForm, useIsSubmitting } from "#app/components/account/useAccountForm";
import { Button } from "#app/components/ui/Button";

export const meta: MetaFunction = () => [{ title: "Completá tus datos · Tribuna" }];

/** The domain's `fieldsToComplete`, in the order the form shows them. */
async function missingFields(ctx: Ctx, userId: string): Promise<CompletableField[]> {
  const row = await getUserById(ctx, userId);
  if (!row) throw new Unauthenticated();
  const missing = fieldsToComplete(row).filter(isCompletableField);
  return COMPLETABLE_FIELDS.filter((name) => missing.includes(name));
}

/** Nothing left to ask: on to the saved return path (or home). */
function goOn(request: Request, headers: Headers, flash?: string) {
  const { to, headers: callback } = consumeReturnPath(request);
  const out = mergeHeaders(headers);
  for (const cookie of callback) out.append("Set-Cookie", cookie);
  return redirect(to, { headers: flash ? withFlash(out, { type: "success", message: flash }) : out });
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, user, headers } = await requireUser(request);
  const missing = await missingFields(ctx, user.id);
  if (!missing.length) return goOn(request, headers);
  return data({ missing, email: user.email }, { headers });
}

/** `updateUser` with only the missing fields (the rest of the profile stays as it is). */
export async function action({ request }: ActionFunctionArgs) {
  const { ctx, user, headers } = await requireUser(request);
  const missing = await missingFields(ctx, user.id);
  if (!missing.length) return goOn(request, headers);
  const saveError: SnackbarMessage = { type: "error", message: SAVE_ERROR };
  const submission = parseWithZod(await request.formData(), { schema: completeProfileSchema(missing) });
  if (submission.status !== "success") {
    const reply = invalidReply(submission);
    return data({ result: reply.result, snackbar: saveError }, { status: reply.status, headers });
  }
  try {
    // The schema is built for the missing fields only, so its value is typed loosely; updateUser parses it again.
    await updateUser(ctx, submission.value as Parameters<typeof updateUser>[1]);
  } catch (error) {
    const reply = domainErrorReply(submission, error, { fields: missing });
    return data({ result: reply.result, snackbar: saveError }, { status: reply.status, headers });
  }
  return goOn(request, headers, SAVE_SUCCESS);
}

export default function FinishGooglePage() {
  const { missing, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const schema = useMemo(() => completeProfileSchema(missing), [missing]);
  const [form, fields] = useAccountForm(schema, { id: "finalizar-google", lastResult: actionData?.result });
  const submitting = useIsSubmitting();
  return (
    <AccountPage
      title="Completá tus datos"
      description={
        <>
          Ya ingresaste con Google como <strong>{email}</strong>. Para comprar entradas necesitamos estos datos.
        </>
      }
    >
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <FormErrors id={form.errorId} errors={form.errors} />
        <ProfileFields fields={fields} names={missing} required />
        <Button type="submit" className="mt-2" pending={submitting} pendingLabel="Guardando…">
          Guardar y continuar
        </Button>
      </Form>
      <FormSnackbar snackbar={actionData?.snackbar} />
    </AccountPage>
  );
}
