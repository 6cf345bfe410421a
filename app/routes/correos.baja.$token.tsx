import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { isDomainError } from "#server/errors";
import { unsubscribe, unsubscribeStatus, UNSUBSCRIBE_MESSAGES } from "#server/campaigns/unsubscribe";
import { getRequestContext } from "#app/lib/session.server";
import { Button, buttonClasses } from "#app/components/ui/Button";

export const meta: MetaFunction = () => [{ title: "Darte de baja · Tribuna" }, { name: "robots", content: "noindex" }];

type PageData = { organizationName: string; email: string; unsubscribed: boolean } | { invalid: string };

/**
 * `/correos/baja/{token}` (docs/campaigns.md): the unsubscribe link of every
 * campaign email. GET only shows the page, with a button: mail scanners
 * follow links, and a link must not unsubscribe anyone. POST unsubscribes:
 * the button's form, or the mail client's one-click POST (RFC 8058, body
 * `List-Unsubscribe=One-Click`), which needs no page at all.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  headers.set("Cache-Control", "private, no-store");
  try {
    return data<PageData>(await unsubscribeStatus(ctx.db, params.token ?? ""), { headers });
  } catch (error) {
    if (isDomainError(error) && error.code === "NOT_FOUND") return data<PageData>({ invalid: UNSUBSCRIBE_MESSAGES.invalid }, { status: 404, headers });
    throw error;
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  headers.set("Cache-Control", "private, no-store");
  let oneClick = false;
  try {
    const form = await request.formData();
    oneClick = form.get("List-Unsubscribe") === "One-Click";
  } catch {
    // A one-click POST with an unexpected body still unsubscribes.
  }
  try {
    return data<PageData>(await unsubscribe(ctx.db, params.token ?? "", { source: oneClick ? "one-click" : "page", now: ctx.now }), { headers });
  } catch (error) {
    if (isDomainError(error) && error.code === "NOT_FOUND") return data<PageData>({ invalid: UNSUBSCRIBE_MESSAGES.invalid }, { status: 404, headers });
    throw error;
  }
}

export default function UnsubscribePage() {
  const loaded = useLoaderData<typeof loader>() as PageData;
  const posted = useActionData<typeof action>() as PageData | undefined;
  const page = posted ?? loaded;
  if ("invalid" in page) {
    return (
      <main className="mx-auto flex w-full max-w-xl flex-col items-center gap-4 px-4 py-16 text-center">
        <h1 className="text-2xl font-bold">No pudimos darte de baja</h1>
        <p className="text-[var(--muted)]">{page.invalid}</p>
        <Link to="/" className={buttonClasses("secondary", "min-h-11")}>
          Ir a Tribuna
        </Link>
      </main>
    );
  }
  return (
    <main className="mx-auto flex w-full max-w-xl flex-col items-center gap-4 px-4 py-16 text-center">
      {page.unsubscribed ? (
        <>
          <h1 className="text-2xl font-bold">Listo, te diste de baja</h1>
          <p>
            <span className="break-all font-medium">{page.email}</span> no va a recibir más correos de promoción de <strong>{page.organizationName}</strong>.
          </p>
          <p className="text-sm text-[var(--muted)]">Si comprás entradas, igual te llegan tus entradas y los avisos de tu compra.</p>
        </>
      ) : (
        <>
          <h1 className="text-2xl font-bold">¿No querés recibir más correos de {page.organizationName}?</h1>
          <p>
            Vamos a dejar de mandarle sus campañas a <span className="break-all font-medium">{page.email}</span>.
          </p>
          <Form method="post">
            <Button type="submit" className="min-h-11">
              Darme de baja
            </Button>
          </Form>
          <p className="text-sm text-[var(--muted)]">Tus entradas y los avisos de tus compras te van a seguir llegando.</p>
        </>
      )}
    </main>
  );
}
