import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { sendEmailVerification } from "#server/accounts/email-verification";
import { getUserById, updateUser } from "#server/accounts/users";
import { SAVE_ERROR, SAVE_SUCCESS } from "#server/errors";
import { mailboxLink } from "#app/lib/dev-mailbox.server";
import { withFlash } from "#app/lib/flash.server";
import { domainErrorReply, invalidReply } from "#app/lib/forms.server";
import { requireUser } from "#app/lib/session.server";
import { AccountLinks, AccountPage } from "#app/components/account/AccountPage";
import { FormSnackbar, type SnackbarMessage } from "#app/components/ui/FormSnackbar";
import { MailboxNotice } from "#app/components/account/MailboxNotice";
import { FormErrors, Notice } from "#app/components/account/Notice";
import { ProfileFields, type ProfileFieldName } from "#app/components/account/ProfileFields";
import { OPTIONAL_PROFILE_FIELDS, profileFormSchema } from "#app/components/account/schemas";
import { useAccountForm, useIsSubmitting } from "#app/components/account/useAccountForm";
import { Button } from "#app/components/ui/Button";

export const meta: MetaFunction = () => [{ title: "Mi cuenta · Tribuna" }];

const NAMES: ProfileFieldName[] = ["firstName", "lastName", "email", "nickname", "documentType", "documentNumber", "address", "state", "phoneNumber"];

export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, user, headers } = await requireUser(request);
  const row = await getUserById(ctx, user.id);
  return data(
    {
      emailVerified: Boolean(row?.emailVerifiedAt),
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
  const formData = await request.formData();
  if (formData.get("intent") === "verificar-email") {
    // The link that confirms the address (decision 115): said next to the button, with where to read it without SMTP.
    try {
      const sent = await sendEmailVerification(ctx);
      return data({ verification: { sentTo: sent.emailTo, mailbox: mailboxLink(request, { id: sent.logEmailId }), error: null } }, { headers });
    } catch (error) {
      const reply = domainErrorReply(parseWithZod(formData, { schema: profileFormSchema }), error);
      return data({ verification: { sentTo: null, mailbox: null, error: reply.result.error?.[""]?.[0] ?? SAVE_ERROR } }, { status: reply.status, headers });
    }
  }
  const submission = parseWithZod(formData, { schema: profileFormSchema });
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
  const { profile, saveError, emailVerified } = useLoaderData<typeof loader>();
  // After a save the form starts again from what was stored (the domain may have normalised it: "30.123.456" → "30123456").
  return <ProfileForm key={JSON.stringify(profile)} profile={profile} saveError={saveError} emailVerified={emailVerified} />;
}

/** Unconfirmed email: why it matters and the button that sends the link; after sending, where it went. */
function EmailVerification({ email }: { email: string }) {
  const reply = useActionData<typeof action>();
  const verification = reply && "verification" in reply ? reply.verification : null;
  const submitting = useIsSubmitting();
  if (verification?.sentTo) {
    return (
      <Notice tone="success">
        <p>
          Te mandamos un enlace a <strong>{verification.sentTo}</strong> para confirmar tu email. Vence en 24 horas.
        </p>
        <MailboxNotice href={verification.mailbox} />
      </Notice>
    );
  }
  return (
    <section aria-labelledby="confirmar-email" className="mb-6 rounded-lg border border-[var(--border)] p-4 text-sm">
      <h2 id="confirmar-email" className="font-bold">
        Confirmá tu email
      </h2>
      <p className="mt-1">
        Todavía no confirmaste <strong>{email}</strong>. Cuando lo confirmes, las compras que hiciste sin cuenta con este email aparecen en Mis tickets.
      </p>
      {verification?.error ? <p className="mt-2 font-bold text-red-700 dark:text-red-300" role="alert">{verification.error}</p> : null}
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="verificar-email" />
        <Button type="submit" variant="secondary" pending={submitting} pendingLabel="Enviando…">
          Enviarme el enlace para confirmarlo
        </Button>
      </Form>
    </section>
  );
}

function ProfileForm({ profile, saveError, emailVerified }: { profile: Record<string, string>; saveError: string; emailVerified: boolean }) {
  const reply = useActionData<typeof action>();
  const actionData = reply && "result" in reply ? reply : undefined;
  const [form, fields] = useAccountForm(profileFormSchema, { id: "mi-cuenta", lastResult: actionData?.result, defaultValue: profile });
  const submitting = useIsSubmitting();
  // Shown when the browser's check stops the form before it is sent.
  const [localError, setLocalError] = useState<SnackbarMessage | null>(null);
  const formProps = getFormProps(form);

  return (
    <AccountPage title="Mi cuenta" description="Tus datos para comprar entradas y recibirlas." wide>
      {emailVerified ? null : <EmailVerification email={profile.email} />}
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
