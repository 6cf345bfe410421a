import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireBackoffice } from "#app/lib/backoffice.server";
import { BO } from "#app/components/backoffice/nav";

/**
 * /organizacion → the first page the member's role opens, keeping the
 * filters: the summary for the team, their sales for a promoter, the
 * campaigns for marketing.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const bo = await requireBackoffice(request);
  const home = bo.can["door:operate"] ? BO.summary : bo.can["promoters:sell"] ? BO.myGroup : bo.can["campaigns:manage"] ? BO.campaigns : BO.summary;
  return redirect(`${home}${url.search}`, { headers: bo.headers });
}
