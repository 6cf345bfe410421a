import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { acceptInvitation, invitationPreview } from "#server/team/team";
import { requireUser } from "#app/lib/session.server";
import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { isDomainError } from "#server/errors";
import { Button } from "#app/components/ui/Button";
import { Field } from "#app/components/ui/Field";

export const meta: MetaFunction = () => [{ title: "Invitación al equipo · Tribuna" }, { name: "robots", content: "noindex" }];

/** Signed in first (a new person creates the account there and comes back here), then one button. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers, user } = await requireUser(request);
  headers.set("Cache-Control", "private, no-store");
  try {
    return data({ invitation: await invitationPreview(ctx, params.token ?? ""), signedInAs: user.email }, { headers });
  } catch (error) {
    throw pageErrorResponse(error, { headers });
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  try {
    const form = await request.formData();
    const nickname = form.get("nickname");
    const joined = await acceptInvitation(ctx, params.token ?? "", { nickname: typeof nickname === "string" ? nickname : null });
    return redirect(`/organizacion${joined.promoter ? "/relaciones-publicas/mi-grupo" : "/resumen"}?organizationId=${joined.organizationId}`, { headers });
  } catch (error) {
    // The nickname picked is taken or malformed: the answer goes next to the field.
    if (isDomainError(error) && error.fieldErrors?.nickname) return data({ nicknameError: error.fieldErrors.nickname[0] }, { status: 400, headers });
    throw pageErrorResponse(error, { headers });
  }
}

export default function AcceptInvitationPage() {
  const { invitation, signedInAs } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <main className="mx-auto flex max-w-md flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-bold">Te invitaron al equipo de {invitation.organizationName}</h1>
      <p>
        Rol: <strong>{invitation.roleLabel}</strong>. La invitación se envió a {invitation.email}; vas a entrar con tu cuenta {signedInAs}.
      </p>
      <Form noValidate method="post" className="flex flex-col gap-4">
        {invitation.needsNickname ? (
          <Field
            label="Tu apodo"
            help={<>Es el final de tu link para vender (…/eventos/evento/tu-apodo): letras sin tildes, números, puntos y guiones.</>}
            errors={answer?.nicknameError ? [answer.nicknameError] : null}
            inputProps={{ id: "nickname", name: "nickname", required: true, autoComplete: "nickname", autoCapitalize: "none", spellCheck: false }}
          />
        ) : null}
        <Button type="submit" className="w-full py-3">Aceptar y entrar</Button>
      </Form>
    </main>
  );
}
