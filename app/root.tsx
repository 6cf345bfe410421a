import "@fontsource/space-grotesk/400.css";
import "@fontsource/space-grotesk/500.css";
import "@fontsource/space-grotesk/700.css";
import "./tailwind.css";
import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { parseCookies } from "#server/auth/cookies";
import { publicEnv } from "#server/env";
import { getUserById, toPublicUser } from "#server/accounts/users";
import { isValidPixelId } from "#app/lib/validation";
import { parseTheme, THEME_KEY, type Theme } from "#app/lib/theme";
import { readFlash } from "#app/lib/flash.server";
import { getRequestContext } from "#app/lib/session.server";

export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export const meta: MetaFunction = () => [
  { title: "Tribuna · Entradas para eventos en Argentina" },
  { name: "description", content: "Comprá entradas para recitales, fiestas, teatro y más. Pagá con Mercado Pago o transferencia." },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  const user = ctx.actor.kind === "user" ? await getUserById(ctx, ctx.actor.userId) : undefined;
  const { flash, clear } = readFlash(request);
  if (clear) headers.append("Set-Cookie", clear);
  const pixelId = new URL(request.url).searchParams.get("pixelId");
  return data(
    {
      user: user ? toPublicUser(user) : null,
      theme: parseTheme(parseCookies(request.headers.get("cookie"))[THEME_KEY]),
      flash,
      pixelId: isValidPixelId(pixelId) ? pixelId : null,
      env: publicEnv(),
    },
    { headers },
  );
}

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root") as RootData | undefined;
}

/** Before first paint: resolves "system" to the device's scheme, so reloads never flash the wrong theme. */
function themeScript(theme: Theme) {
  if (theme !== "system") return null;
  return `(function(){var d=window.matchMedia('(prefers-color-scheme: dark)').matches;var c=document.documentElement.classList;c.toggle('dark',d);c.toggle('light',!d);})();`;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const theme = root?.theme ?? "dark";
  const script = themeScript(theme);
  return (
    <html lang="es-AR" className={theme === "light" ? "light" : "dark"} data-theme={theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f1115" />
        {script ? <script dangerouslySetInnerHTML={{ __html: script }} /> : null}
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen antialiased">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  useLoaderData<typeof loader>();
  return <Outlet />;
}
