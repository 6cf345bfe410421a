import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { formatCuit } from "#common/cuit";
import { formatDate } from "#common/dates";
import { formatMoney } from "#common/money";
import { listPlatformOrganizations } from "#server/admin/overview";
import { pageErrorResponse } from "#app/lib/domain-errors.server";
import { requireUser } from "#app/lib/session.server";
import { AdminNav, AdminPager, adminTable } from "#app/components/admin/AdminNav";
import { Button } from "#app/components/ui/Button";
import { fieldInputClasses } from "#app/components/ui/Field";

export const meta: MetaFunction = () => [{ title: "Organizaciones · Equipo de Tribuna" }, { name: "robots", content: "noindex" }];

const PATH = "/admin/organizaciones";

/**
 * The platform team's list of every organization (docs/admin.md), newest
 * first, searchable by name, slug or CUIT (`?q=`), 25 a page (`?pagina=`),
 * with its numbers from the ledger. The domain checks the admin role; anyone
 * else gets the 403 page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, headers } = await requireUser(request);
  headers.set("Cache-Control", "private, no-store");
  const url = new URL(request.url);
  try {
    const list = await listPlatformOrganizations(ctx, { search: url.searchParams.get("q") ?? "", page: url.searchParams.get("pagina") ?? "1" });
    return data(
      {
        search: list.search,
        page: list.page,
        pages: list.pages,
        total: list.total,
        organizations: list.items.map((o) => ({
          id: o.id,
          name: o.name,
          slug: o.slug,
          cuit: o.cuit ? formatCuit(o.cuit) : null,
          contactEmail: o.contactEmail,
          createdAt: formatDate(o.createdAt),
          members: o.members,
          events: o.events,
          paidOrders: o.paidOrders,
          grossSold: formatMoney(o.grossSold),
          balance: formatMoney(o.balance),
          negativeBalance: o.balance < 0,
          pendingWithdrawals: o.pendingWithdrawals,
        })),
      },
      { headers }
    );
  } catch (error) {
    throw pageErrorResponse(error, { headers });
  }
}

function pageHref(search: string, page: number) {
  const params = new URLSearchParams();
  if (search) params.set("q", search);
  if (page > 1) params.set("pagina", String(page));
  const query = params.toString();
  return query ? `${PATH}?${query}` : PATH;
}

export default function PlatformOrganizations() {
  const { organizations, search, page, pages, total } = useLoaderData<typeof loader>();
  const { wrapper, head, body, th, td } = adminTable;
  return (
    <main className="mx-auto flex w-full max-w-6xl flex-col gap-5 px-4 py-8">
      <AdminNav />
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold">Organizaciones</h1>
        <p className="text-sm text-[var(--muted)]">
          Todas las organizaciones de Tribuna, de la más nueva a la más vieja. Los montos salen del libro mayor: lo vendido es la suma de los pagos aprobados (con nuestro cargo
          incluido) y el saldo, la suma de todos los movimientos.
        </p>
      </div>

      <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
        <label className="flex min-w-0 flex-1 flex-col gap-1 text-sm sm:max-w-md">
          <span>Buscar por nombre, slug o CUIT</span>
          <input name="q" type="search" defaultValue={search} maxLength={100} className={fieldInputClasses} />
        </label>
        <Button type="submit" variant="secondary">
          Buscar
        </Button>
        {search ? (
          <Link to={PATH} className="py-2.5 text-sm text-primary-700 hover:underline dark:text-primary-400">
            Ver todas
          </Link>
        ) : null}
      </Form>

      <p className="text-sm text-[var(--muted)]" aria-live="polite">
        {total === 0
          ? search
            ? `No hay organizaciones que coincidan con “${search}”.`
            : "Todavía no hay organizaciones."
          : total === 1
          ? "1 organización"
          : `${total} organizaciones`}
      </p>

      {organizations.length ? (
        <div className={wrapper}>
          <table className="w-full min-w-[68rem] text-left text-sm">
            <thead className={head}>
              <tr>
                <th scope="col" className={th}>
                  Organización
                </th>
                <th scope="col" className={th}>
                  CUIT
                </th>
                <th scope="col" className={th}>
                  Email de contacto
                </th>
                <th scope="col" className={th}>
                  Creada
                </th>
                <th scope="col" className={`${th} text-right`}>
                  Miembros
                </th>
                <th scope="col" className={`${th} text-right`}>
                  Eventos
                </th>
                <th scope="col" className={`${th} text-right`}>
                  Compras pagadas
                </th>
                <th scope="col" className={`${th} text-right`}>
                  Vendido
                </th>
                <th scope="col" className={`${th} text-right`}>
                  Saldo
                </th>
                <th scope="col" className={`${th} text-right`}>
                  Extracciones pendientes
                </th>
                <th scope="col" className={th}>
                  <span className="sr-only">Acciones</span>
                </th>
              </tr>
            </thead>
            <tbody className={body}>
              {organizations.map((o) => (
                <tr key={o.id} data-organization={o.id}>
                  <th scope="row" className={`${td} font-bold`}>
                    {o.name}
                    <a href={`/${o.slug}`} className="block text-xs font-normal text-primary-700 hover:underline dark:text-primary-400">
                      /{o.slug}
                    </a>
                  </th>
                  <td className={`${td} whitespace-nowrap`}>{o.cuit ?? "—"}</td>
                  <td className={`${td} break-all`}>{o.contactEmail ?? "—"}</td>
                  <td className={`${td} whitespace-nowrap`}>{o.createdAt}</td>
                  <td className={`${td} text-right tabular-nums`}>{o.members}</td>
                  <td className={`${td} text-right tabular-nums`}>{o.events}</td>
                  <td className={`${td} text-right tabular-nums`}>{o.paidOrders}</td>
                  <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{o.grossSold}</td>
                  <td className={`${td} whitespace-nowrap text-right tabular-nums ${o.negativeBalance ? "text-red-700 dark:text-red-300" : ""}`}>{o.balance}</td>
                  <td className={`${td} text-right tabular-nums`}>
                    {o.pendingWithdrawals ? (
                      <Link to="/admin/extracciones" className="font-bold text-primary-700 hover:underline dark:text-primary-400">
                        {o.pendingWithdrawals}
                      </Link>
                    ) : (
                      0
                    )}
                  </td>
                  <td className={`${td} whitespace-nowrap`}>
                    <Link to={`/organizacion/resumen?organizationId=${o.id}`} className="text-primary-700 hover:underline dark:text-primary-400">
                      Ver como soporte
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <AdminPager page={page} pages={pages} href={(p) => pageHref(search, p)} />
    </main>
  );
}
