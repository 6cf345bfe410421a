import { redirect, type LoaderFunctionArgs } from "@remix-run/node";

/** /organizacion → the summary, keeping the filters. */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return redirect(`/organizacion/resumen${url.search}`);
}
