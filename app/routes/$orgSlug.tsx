import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { listPublicEvents } from "#server/events/catalogue";
import { getOrganizationBySlug } from "#server/organizations/organizations";
import { applyPublicCache, cacheHeadersFrom } from "#app/lib/cache.server";
import { pagination, PAGE_SIZE, toEventCard } from "#app/lib/catalogue.server";
import { getRequestContext } from "#app/lib/session.server";
import { EventGrid } from "#app/components/events/EventCard";
import { Pager } from "#app/components/events/Pager";

/**
 * `/{slug}`: an organization's public page. Only one segment: deeper unknown
 * paths still reach the catch-all (`$.tsx`), and static routes (`/ayuda`…)
 * win over this one. An unknown slug is the 404 page with status 404.
 */
export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: "Página no encontrada · Tribuna" }, { name: "robots", content: "noindex" }];
  const description = (data.organization.description || `Próximos eventos de ${data.organization.name} en Tribuna.`).replace(/\s+/g, " ").slice(0, 160);
  return [
    { title: `${data.organization.name} · Tribuna` },
    { name: "description", content: description },
    { property: "og:title", content: data.organization.name },
  ];
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  let organization;
  try {
    organization = await getOrganizationBySlug(ctx, params.orgSlug ?? "");
  } catch (error) {
    throw pageErrorResponse(error, { headers });
  }
  const url = new URL(request.url);
  const pageNumber = Number(url.searchParams.get("pagina") ?? "1");
  const page = Number.isInteger(pageNumber) && pageNumber >= 1 && pageNumber <= 1000 ? pageNumber - 1 : 0;
  const result = await listPublicEvents(ctx, { organizationId: organization.id, page, limit: PAGE_SIZE });
  return data(
    {
      organization: {
        name: organization.name,
        slug: organization.slug,
        description: organization.description ?? "",
        logoUrl: organization.logoUrl,
      },
      events: result.items.map(toEventCard),
      pager: pagination(url, result),
    },
    { headers: applyPublicCache(request, headers) },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders }) => cacheHeadersFrom(loaderHeaders);

export default function OrganizationPage() {
  const { organization, events, pager } = useLoaderData<typeof loader>();
  const initials = organization.name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join("");
  return (
    <main className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-8">
      <header className="flex items-start gap-4">
        {organization.logoUrl ? (
          <img
            src={organization.logoUrl}
            alt=""
            width={72}
            height={72}
            decoding="async"
            className="h-18 w-18 shrink-0 rounded-xl border border-[var(--border)] object-cover"
          />
        ) : (
          <div
            aria-hidden="true"
            className="flex h-18 w-18 shrink-0 items-center justify-center rounded-xl bg-linear-to-br from-primary-600 to-secondary-600 text-2xl font-bold text-white"
          >
            {initials}
          </div>
        )}
        <div className="min-w-0">
          <p className="text-xs font-bold tracking-wide text-[var(--muted)]">ORGANIZADOR</p>
          <h1 className="text-2xl font-bold leading-tight sm:text-3xl">{organization.name}</h1>
        </div>
      </header>
      {organization.description ? (
        <p className="mt-4 max-w-prose whitespace-pre-line leading-relaxed">{organization.description}</p>
      ) : null}
      <section aria-labelledby="proximos" className="mt-8">
        <h2 id="proximos" className="mb-4 text-xl font-bold">
          Próximos eventos
        </h2>
        {events.length ? (
          <EventGrid events={events} headingLevel={3} />
        ) : (
          <p className="rounded-xl border border-dashed border-[var(--border)] px-4 py-8 text-center text-[var(--muted)]">
            {organization.name} no tiene eventos a la venta por ahora. Volvé pronto.
          </p>
        )}
        <Pager pager={pager} />
      </section>
    </main>
  );
}
