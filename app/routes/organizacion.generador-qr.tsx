import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { isDomainError } from "#server/errors";
import { linkQr, organizationLinks } from "#server/organizations/link-qr";
import { guard, requireOrganization } from "#app/lib/backoffice.server";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import { Button, buttonClasses } from "#app/components/ui/Button";
import { fieldInputClasses } from "#app/components/ui/Field";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "Generador de QR · Tribuna" }];

/** A GET form: the link in the query, the QR drawn on the server (works without JavaScript). */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request, "events:manage");
  const link = new URL(request.url).searchParams.get("link") ?? "";
  const suggestions = await guard(() => organizationLinks(bo.ctx, bo.organization.id));
  let qr: { url: string; svg: string } | null = null;
  let error: string | null = null;
  if (link) {
    try {
      qr = await linkQr(bo.ctx, { organizationId: bo.organization.id, url: link });
    } catch (e) {
      if (!isDomainError(e) || e.code !== "BAD_USER_INPUT") throw e;
      error = e.fieldErrors.url?.[0] ?? e.message;
    }
  }
  return data({ link, qr, error, suggestions }, { status: error ? 400 : 200, headers: bo.headers });
}

export default function QrGeneratorPage() {
  const { link, qr, error, suggestions } = useLoaderData<typeof loader>();
  const href = useBackofficeHref();
  return (
    <BackofficePage
      narrow
      title="Generador de QR"
      lead="El QR de cualquier link de Tribuna: la página de tu evento, un link de RRPP o el menú. Descargalo en PNG para redes o en SVG para imprimir en grande sin que se pixele."
    >
      <Card>
        <Form method="get" className="flex flex-col gap-2">
          <label htmlFor="link" className="font-bold">Link</label>
          <input
            id="link"
            name="link"
            defaultValue={link}
            inputMode="url"
            placeholder="https://…/eventos/mi-evento"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "link-help link-error" : "link-help"}
            className={fieldInputClasses}
          />
          <p id="link-help" className="text-sm text-[var(--muted)]">Pegá un link de Tribuna o escribí el camino, por ejemplo /eventos/mi-evento.</p>
          <p id="link-error" className="min-h-5 text-sm text-red-600 dark:text-red-400" aria-live="polite">{error}</p>
          <div className="flex justify-end">
            <Button type="submit">Generar QR</Button>
          </div>
        </Form>
        {suggestions.length ? (
          <div className="mt-4">
            <p className="text-sm font-bold">Tus eventos</p>
            <ul className="mt-1 flex flex-col gap-1 text-sm">
              {suggestions.map((s) => (
                <li key={s.url}>
                  <Link to={href(BO.qrGenerator, {}, { link: s.url })} className="text-primary-700 underline dark:text-primary-400">{s.label}</Link>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </Card>
      {qr ? (
        <Card title="Tu QR">
          <div className="mx-auto w-64 max-w-full rounded-xl bg-white p-3" data-testid="link-qr">
            <span className="block" dangerouslySetInnerHTML={{ __html: qr.svg }} />
          </div>
          <p className="mt-3 break-all text-center text-sm">{qr.url}</p>
          <div className="mt-4 flex flex-wrap justify-center gap-2">
            <a href={href(BO.qrDownload, {}, { link: qr.url, formato: "png" })} className={buttonClasses()} download>Descargar PNG</a>
            <a href={href(BO.qrDownload, {}, { link: qr.url, formato: "svg" })} className={buttonClasses("secondary")} download>Descargar SVG</a>
          </div>
        </Card>
      ) : null}
    </BackofficePage>
  );
}
