import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { listPublicEvents } from "#server/events/catalogue";
import { getOrganizationBySlug } from "#server/organizations/organizations";
import { responsiveImage } from "#common/images";
import { applyPublicCache, cacheHeadersFrom } from "#app/lib/cache.server";
import { pagination, PAGE_SIZE, pickFeatured, toEventCard } from "#app/lib/catalogue.server";
import { getRequestContext } from "#app/lib/session.server";
import { EventGrid } from "#app/components/events/EventCard";
import { FeaturedEvent } from "#app/components/events/FeaturedEvent";
import { Pager } from "#app/components/events/Pager";

/**
 * `/{slug}`: an organization's public page. Only one segment: deeper unknown
 * paths still reach the catch-all (`$.tsx`), and static routes (`/ayuda`…)
 * win over this one. An unknown slug is the 404 page with status 404. Like
 * the home: its next event on sale first, large, then the rest as cards.
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
      featured: page === 0 ? pickFeatured(result.items) : null,
      pager: pagination(url, result),
    },
    { headers: applyPublicCache(request, headers) },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders }) => cacheHeadersFrom(loaderHeaders);

export default function OrganizationPage() {
  const { organization, events, featured, pager } = useLoaderData<typeof loader>();
  const grid = featured ? events.filter((e) => e.slug !== featured.slug) : events;
  const initials = organization.name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join("");
  return (
    <main className="mx-auto w-full max-w-6xl px-4 pb-8 sm:px-6 sm:pt-6">
      <header>
        <div
          aria-hidden="true"
          className="-mx-4 h-28 [background-image:radial-gradient(circle_at_85%_30%,rgba(255,255,255,.18)_0,transparent_35%),linear-gradient(to_bottom_right,var(--color-primary-800),var(--color-secondary-700))] sm:mx-0 sm:h-40 sm:rounded-2xl"
        />
        {/* Only the logo overlaps the band: the text stays on the page's background. */}
        <div className="flex flex-col gap-3 sm:flex-row sm:gap-5 sm:px-6">
          {organization.logoUrl ? (
            <img
              src={organization.logoUrl}
              srcSet={responsiveImage(organization.logoUrl).srcSet ?? undefined}
              sizes="96px"
              alt=""
              width={96}
              height={96}
              decoding="async"
              className="-mt-10 h-20 w-20 shrink-0 rounded-2xl border-4 border-[var(--bg)] bg-[var(--surface)] object-cover sm:-mt-12 sm:h-24 sm:w-24"
            />
          ) : (
            <div
              aria-hidden="true"
              className="-mt-10 flex h-20 w-20 shrink-0 items-center justify-center rounded-2xl border-4 border-[var(--bg)] bg-linear-to-br from-primary-600 to-secondary-600 text-2xl font-bold text-white sm:-mt-12 sm:h-24 sm:w-24 sm:text-3xl"
            >
              {initials}
            </div>
          )}
          <div className="min-w-0 sm:pt-3">
            <p className="text-xs font-bold uppercase tracking-wider text-[var(--muted)]">Organizador</p>
            <h1 className="text-2xl font-bold leading-tight [overflow-wrap:anywhere] sm:text-4xl">{organization.name}</h1>
            <p className="mt-1 text-sm text-[var(--muted)]">
              {pager.total === 0 ? "Sin eventos a la venta por ahora" : pager.total === 1 ? "1 evento a la venta" : `${pager.total} eventos a la venta`}
            </p>
          </div>
        </div>
        {organization.description ? <p className="mt-4 max-w-prose whitespace-pre-line leading-relaxed sm:px-6">{organization.description}</p> : null}
      </header>
      {featured ? (
        <div className="mt-6 sm:mt-8">
          <FeaturedEvent event={featured} label="Próxima fecha" />
        </div>
      ) : null}
      <section aria-labelledby="proximos" className={featured && !grid.length ? "sr-only" : "mt-8"}>
        <h2 id="proximos" className="mb-3 text-lg font-bold sm:mb-4 sm:text-xl">
          {featured ? "Más eventos" : "Próximos eventos"}
        </h2>
        {grid.length ? (
          <EventGrid events={grid} headingLevel={3} />
        ) : featured ? null : (
          <p className="rounded-xl border border-dashed border-[var(--border)] px-4 py-8 text-center text-[var(--muted)]">
            {organization.name} no tiene eventos a la venta por ahora. Volvé pronto.
          </p>
        )}
        <Pager pager={pager} />
      </section>
    </main>
  );
}
