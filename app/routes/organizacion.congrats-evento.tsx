import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { getEventForOrganizer } from "#server/events/events";
import { appUrl } from "#server/env";
import { linkQrPngDataUrl, linkQrSvg } from "#server/tickets/qr";
import { formatDateTime } from "#common/dates";
import { guard, requireOrganization } from "#app/lib/backoffice.server";
import { BO } from "#app/components/backoffice/nav";
import { BackofficePage, Card } from "#app/components/backoffice/Page";
import { useBackofficeHref } from "#app/components/backoffice/Shell";
import { buttonClasses } from "#app/components/ui/Button";
import { fieldInputClasses } from "#app/components/ui/Field";

export { BackofficeErrorBoundary as ErrorBoundary } from "#app/components/backoffice/ErrorBoundary";

export const meta: MetaFunction = () => [{ title: "¡Evento publicado! · Tribuna" }];

/** `/organizacion/congrats-evento?eventId=…`: the share link, its QR and what to do next. */
export async function loader({ request }: LoaderFunctionArgs) {
  const bo = await requireOrganization(request);
  const eventId = new URL(request.url).searchParams.get("eventId") ?? "";
  const { event, dates } = await guard(() => getEventForOrganizer(bo.ctx, eventId));
  const shareUrl = new URL(BO.publicEvent(event.slug), appUrl()).toString();
  // Drawn on the server: the page needs no JavaScript and the browser no QR library.
  const [qrSvg, qrPng] = await Promise.all([linkQrSvg(shareUrl), linkQrPngDataUrl(shareUrl, 600)]);
  return data(
    {
      event: {
        id: event.id,
        name: event.name,
        slug: event.slug,
        published: Boolean(event.publishedAt),
        firstDate: dates[0]?.startsAt.toISOString() ?? null,
      },
      shareUrl,
      qrSvg,
      qrPng,
    },
    { headers: bo.headers },
  );
}

export default function EventPublishedPage() {
  const { event, shareUrl, qrSvg, qrPng } = useLoaderData<typeof loader>();
  const href = useBackofficeHref();
  const [copied, setCopied] = useState<"idle" | "ok" | "error">("idle");
  // Copying needs JavaScript: without it the link is in a field to select and copy by hand.
  const [canCopy, setCanCopy] = useState(false);
  useEffect(() => setCanCopy(typeof navigator !== "undefined" && Boolean(navigator.clipboard)), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(shareUrl);
      setCopied("ok");
    } catch {
      setCopied("error");
    }
  }

  return (
    <BackofficePage
      narrow
      title={event.published ? "¡Tu evento está publicado!" : "Tu evento todavía no está publicado"}
      lead={
        event.published ? (
          <>
            <strong className="text-[var(--text)]">{event.name}</strong>
            {event.firstDate ? ` · ${formatDateTime(event.firstDate)}` : ""} ya está a la venta. Compartí el link para que
            empiecen a comprar.
          </>
        ) : (
          <>
            Para que se pueda comprar, aceptá las condiciones de servicio y publicalo.{" "}
            <Link to={href(BO.conditions(event.id), { eventId: event.id })} className="text-[var(--accent)] hover:underline">
              Ir a publicar
            </Link>
          </>
        )
      }
    >
      <div className="flex flex-col gap-6">
        <Card title="Link para compartir">
          <div className="flex flex-col gap-2 sm:flex-row">
            <label htmlFor="share-url" className="sr-only">
              Link del evento
            </label>
            <input id="share-url" readOnly value={shareUrl} className={fieldInputClasses} onFocus={(e) => e.currentTarget.select()} />
            {canCopy ? (
              <button type="button" onClick={copy} className={buttonClasses("primary", "shrink-0")}>
                {copied === "ok" ? "¡Copiado!" : "Copiar link"}
              </button>
            ) : null}
          </div>
          <p className="mt-2 min-h-5 text-sm text-[var(--muted)]" aria-live="polite">
            {copied === "ok" ? "Listo, ya lo podés pegar donde quieras." : copied === "error" ? "No pudimos copiarlo: seleccionalo y copialo a mano." : null}
          </p>
          <a href={shareUrl} className="text-sm text-[var(--accent)] hover:underline">
            Ver la página del evento
          </a>
        </Card>

        <Card title="Código QR del evento">
          <div className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
            <div
              role="img"
              aria-label={`Código QR que abre ${shareUrl}`}
              className="size-48 shrink-0 overflow-hidden rounded-lg bg-white [&>svg]:size-full"
              dangerouslySetInnerHTML={{ __html: qrSvg }}
            />
            <div className="flex flex-col gap-2 text-sm text-[var(--muted)]">
              <p>Imprimilo en flyers y afiches: al escanearlo se abre la página del evento para comprar.</p>
              <a href={qrPng} download={`qr-${event.slug}.png`} className={buttonClasses("secondary", "self-start")}>
                Descargar QR (PNG)
              </a>
            </div>
          </div>
        </Card>

        <Card title="Próximos pasos">
          <ul className="flex flex-col gap-3 text-sm">
            <li>
              <Link to={href(BO.pixel, { eventId: event.id })} className="font-bold text-[var(--accent)] hover:underline">
                Agregá tu píxel de marketing
              </Link>
              <p className="text-[var(--muted)]">Medí las visitas y ventas que vienen de tus anuncios.</p>
            </li>
            <li>
              <Link to={href(BO.customFields(event.slug), { eventId: event.id })} className="font-bold text-[var(--accent)] hover:underline">
                Pedí datos extra a quienes compran
              </Link>
              <p className="text-[var(--muted)]">Campos personalizados: talle de remera, DNI de cada asistente, lo que necesites.</p>
            </li>
            <li>
              <span className="font-bold">Compartilo con tus RRPP</span>
              <p className="text-[var(--muted)]">
                Mandales el link: cada RRPP vende con el suyo (<code>{shareUrl}/su-apodo</code>) y sus ventas quedan registradas.
              </p>
            </li>
            <li>
              <Link to={href(BO.editTickets(event.slug), { eventId: event.id })} className="font-bold text-[var(--accent)] hover:underline">
                Revisá tus entradas
              </Link>
              <p className="text-[var(--muted)]">Sumá stock, pausá un tipo de entrada o creá uno nuevo.</p>
            </li>
          </ul>
        </Card>
      </div>
    </BackofficePage>
  );
}
