import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { updateUser } from "#server/accounts/users";
import { SAVE_ERROR, SAVE_SUCCESS } from "#server/errors";
import { withFlash } from "#app/lib/flash.server";
import { domainErrorReply, invalidReply } from "#app/lib/forms.server";
import { requireUser } from "#app/lib/session.server";
import { AccountLinks, AccountPage } from "#app/components/account/AccountPage";
import { FormSnackbar, type SnackbarMessage } from "#app/components/ui/FormSnackbar";
import { FormErrors } from "#app/components/account/Notice";
import { ProfileFields, type ProfileFieldName } from "#app/components/account/ProfileFields";
import { OPTIONAL_PROFILE_FIELDS, profileFormSchema } from "#app/components/account/schemas";
import { useAccountForm, useIsSubmitting } from "#app/components/account/useAccountForm";
import { Button } from "#app/components/ui/Button";

export const meta: MetaFunction = () => [{ title: "Mi cuenta · Tribuna" }];

const NAMES: ProfileFieldName[] = ["firstName", "lastName", "email", "nickname", "documentType", "documentNumber", "address", "state", "phoneNumber"];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, headers } = await requireUser(request);
  return data(
    {
      profile: {
        firstName: user.firstName ?? "",
        lastName: user.lastName ?? "",
        email: user.email,
        nickname: user.nickname ?? "",
        documentType: user.documentType ?? "",
        documentNumber: user.documentNumber ?? "",
        address: user.address ?? "",
        state: user.state ?? "",
        phoneNumber: user.phoneNumber ?? "",
      },
      // The save-error snackbar when the browser's own check stops the form (the words live on the server).
      saveError: SAVE_ERROR,
    },
    { headers },
  );
}

/** `updateUser`: saves the profile; success comes back here with the success snackbar. */
export async function action({ request }: ActionFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: profileFormSchema });
  const saveError: SnackbarMessage = { type: "error", message: SAVE_ERROR };
  if (submission.status !== "success") {
    const reply = invalidReply(submission);
    return data({ result: reply.result, snackbar: saveError }, { status: reply.status, headers });
  }
  // An emptied optional field is cleared (null), not left as it was.
  const input: Record<string, unknown> = { ...submission.value };
  for (const name of OPTIONAL_PROFILE_FIELDS) input[name] ??= null;
  try {
    await updateUser(ctx, input);
  } catch (error) {
    const reply = domainErrorReply(submission, error);
    const snackbar: SnackbarMessage = reply.status === 500 ? { type: "error", message: reply.result.error?.[""]?.[0] ?? SAVE_ERROR } : saveError;
    return data({ result: reply.result, snackbar }, { status: reply.status, headers });
  }
  return redirect("/cuenta/mi-cuenta", { headers: withFlash(headers, { type: "success", message: SAVE_SUCCESS }) });
}

export default function MyAccountPage() {
  const { profile, saveError } = useLoaderData<typeof loader>();
  // After a save the form starts again from what was stored (the domain may have normalised it: "30.123.456" → "30123456").
  return <ProfileForm key={JSON.stringify(profile)} profile={profile} saveError={saveError} />;
}

function ProfileForm({ profile, saveError }: { profile: Record<string, string>; saveError: string }) {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useAccountForm(profileFormSchema, { id: "mi-cuenta", lastResult: actionData?.result, defaultValue: profile });
  const submitting = useIsSubmitting();
  // Shown when the browser's check stops the form before it is sent.
  const [localError, setLocalError] = useState<SnackbarMessage | null>(null);
  const formProps = getFormProps(form);

  return (
    <AccountPage title="Mi cuenta" description="Tus datos para comprar entradas y recibir tus tickets." wide>
      <Form
        method="post"
        {...formProps}
        onSubmit={(event) => {
          formProps.onSubmit(event);
          setLocalError(event.defaultPrevented ? { type: "error", message: saveError } : null);
        }}
        className="flex flex-col gap-2"
      >
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid gap-x-4 gap-y-2 sm:grid-cols-2">
          <ProfileFields fields={fields} names={NAMES} />
        </div>
        <div className="mt-2 flex justify-end">
          <Button type="submit" pending={submitting} pendingLabel="Guardando…">
            Guardar
          </Button>
        </div>
      </Form>
      <FormSnackbar snackbar={localError ?? actionData?.snackbar} />
      <AccountLinks>
        <Link to="/cuenta/seguridad">Seguridad: verificación en dos pasos</Link>
      </AccountLinks>
    </AccountPage>
  );
}
