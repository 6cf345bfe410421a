import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { acceptInvitation, invitationPreview } from "#server/organizations/team";
import { requireUser } from "#app/lib/session.server";
import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { Button } from "#app/components/ui/Button";

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
    const joined = await acceptInvitation(ctx, params.token ?? "");
    return redirect(`/organizacion/resumen?organizationId=${joined.organizationId}`, { headers });
  } catch (error) {
    throw pageErrorResponse(error, { headers });
  }
}

export default function AcceptInvitationPage() {
  const { invitation, signedInAs } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto flex max-w-md flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-bold">Te invitaron al equipo de {invitation.organizationName}</h1>
      <p>
        Rol: <strong>{invitation.roleLabel}</strong>. La invitación se envió a {invitation.email}; vas a entrar con tu cuenta {signedInAs}.
      </p>
      <Form method="post">
        <Button type="submit" className="w-full py-3">Aceptar y entrar</Button>
      </Form>
    </main>
  );
}
