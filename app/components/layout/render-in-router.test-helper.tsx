/**
 * Test helper (not a test): server-renders an element inside a data router,
 * as Remix does, so components using Link, Form, useFetcher, useLocation and
 * useRouteLoaderData("root") can be checked without a browser. With `action`
 * the page is rendered as after a form post (useActionData gets its answer).
 */
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";

export async function renderInRouter(
  element: ReactElement,
  options: { url?: string; rootData?: {} | null; loader?: () => {} | null; action?: () => {} | null; errorElement?: ReactElement } = {},
): Promise<{ html: string; status: number }> {
  const routes = [
    {
      id: "root",
      path: "*",
      loader: options.loader ?? (() => options.rootData ?? null),
      action: options.action,
      element,
      errorElement: options.errorElement,
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${options.url ?? "/"}`, options.action ? { method: "POST", body: new FormData() } : undefined));
  if (context instanceof Response) throw new Error(`Unexpected redirect to ${context.headers.get("location")}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
  return { html, status: context.statusCode };
}
