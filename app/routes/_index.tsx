import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listPublicEvents } from "#server/events/catalogue";
import { applyPublicCache, cacheHeadersFrom } from "#app/lib/cache.server";
import { categoryChips, categoryLabel, CATEGORY_OPTIONS, pagination, parseCatalogueSearch, pickFeatured, PROVINCE_OPTIONS, toEventCard } from "#app/lib/catalogue.server";
import { getRequestContext } from "#app/lib/session.server";
import { EventGrid } from "#app/components/events/EventCard";
import { FeaturedEvent } from "#app/components/events/FeaturedEvent";
import { Pager } from "#app/components/events/Pager";
import { CategoryChips, SearchForm } from "#app/components/events/SearchForm";

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const searching = Boolean(data?.searching);
  return [
    { title: searching ? "Resultados de búsqueda · Tribuna" : "Tribuna · Entradas para eventos en Argentina" },
    {
      name: "description",
      content: "Entradas para recitales, fiestas, teatro, stand-up y festivales de todo el país. Pagá con Mercado Pago.",
    },
    ...(searching ? [{ name: "robots", content: "noindex" }] : []),
  ];
};

/**
 * `/`: the upcoming events of every organization, with the GET search, in one round trip. Without a search, the first
 * page opens with a featured event (the soonest on sale with a picture); category chips filter with plain links.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const search = parseCatalogueSearch(url);
  const { ctx, headers } = await getRequestContext(request);
  const result = await listPublicEvents(ctx, search.filter);
  const v = search.values;
  const searching = Boolean(v.q || v.provincia || v.categoria || v.desde || v.hasta);
  return data(
    {
      events: result.items.map(toEventCard),
      featured: !searching && search.page === 1 ? pickFeatured(result.items) : null,
      chips: categoryChips(url, v.categoria),
      /** Only a category chosen: the page is that category's ("Recitales"). */
      categoryTitle: v.categoria && !(v.q || v.provincia || v.desde || v.hasta) ? categoryLabel(v.categoria) : null,
      pager: pagination(url, result),
      values: v,
      notices: search.notices,
      searching,
      provinces: PROVINCE_OPTIONS,
      categories: CATEGORY_OPTIONS,
    },
    { headers: applyPublicCache(request, headers) },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders }) => cacheHeadersFrom(loaderHeaders);

export default function Home() {
  const { events, featured, chips, categoryTitle, pager, values, notices, searching, provinces, categories } = useLoaderData<typeof loader>();
  const grid = featured ? events.filter((e) => e.slug !== featured.slug) : events;
  return (
    <main className="mx-auto w-full max-w-6xl px-4 py-5 sm:px-6 sm:py-8">
      <header className="mb-4 sm:flex sm:items-end sm:justify-between sm:gap-6">
        <h1 className="text-2xl font-bold sm:text-3xl">{categoryTitle ?? (searching ? "Resultados de tu búsqueda" : "Próximos eventos")}</h1>
        <p className="mt-1 hidden text-sm text-[var(--muted)] sm:block">Recitales, fiestas, teatro y más en todo el país. Comprá con Mercado Pago en pocos pasos.</p>
      </header>
      <SearchForm values={values} provinces={provinces} categories={categories} />
      <div className="mt-3">
        <CategoryChips chips={chips} />
      </div>
      {notices.map((notice) => (
        <p key={notice} role="status" className="mt-3 rounded-lg border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm">
          {notice}
        </p>
      ))}
      {featured ? (
        <div className="mt-5 sm:mt-6">
          <FeaturedEvent event={featured} />
        </div>
      ) : null}
      <section aria-labelledby="resultados" className="mt-6 sm:mt-8">
        <h2 id="resultados" className={featured ? "mb-3 text-lg font-bold sm:text-xl" : "sr-only"}>
          {featured ? "Más eventos" : "Eventos"}
        </h2>
        {searching && events.length ? (
          <p className="mb-3 text-sm text-[var(--muted)]" role="status">
            {pager.total === 1 ? "Encontramos 1 evento" : `Encontramos ${pager.total} eventos`}
          </p>
        ) : null}
        {grid.length ? (
          <EventGrid events={grid} headingLevel={3} />
        ) : featured ? null : (
          <div className="rounded-xl border border-dashed border-[var(--border)] px-4 py-10 text-center">
            <p className="text-lg font-bold">{searching ? "No encontramos eventos con esa búsqueda" : "Todavía no hay eventos publicados"}</p>
            <p className="mt-1 text-sm text-[var(--muted)]">
              {searching
                ? "Probá con otra palabra, sacá algún filtro o buscá en otras fechas."
                : "Volvé en unos días: los organizadores están preparando sus próximas fechas."}
            </p>
            {searching ? (
              <Link to="/" className="mt-4 inline-block text-sm font-bold text-[var(--accent)] underline underline-offset-2">
                Ver todos los eventos
              </Link>
            ) : null}
          </div>
        )}
        <Pager pager={pager} />
      </section>
      <aside className="mt-10 rounded-xl border border-[var(--border)] bg-[var(--surface)] p-4 text-sm sm:flex sm:items-center sm:justify-between sm:gap-4">
        <p>
          <strong>¿Organizás eventos?</strong> Vendé tus entradas con Tribuna.
        </p>
        <Link to="/organizador/landing" className="mt-2 inline-block font-bold text-[var(--accent)] underline underline-offset-2 sm:mt-0">
          Conocé cómo funciona
        </Link>
      </aside>
    </main>
  );
}
