import "./fonts.css";
import "./tailwind.css";
import { Suspense, useEffect, type CSSProperties } from "react";
import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { parseCookies } from "#server/auth/cookies";
import { publicEnv } from "#server/env";
import { getUserById, toPublicUser } from "#server/accounts/users";
import { isValidPixelId } from "#common/validation";
import { DEFAULT_THEME, parseTheme, THEME_KEY, type Theme } from "#app/lib/theme";
import { readFlash } from "#app/lib/flash.server";
import { getRequestContext } from "#app/lib/session.server";
import { useSentryRouteReporting } from "#app/lib/sentry-route";
import { useNonce } from "#app/lib/nonce";
import { afterHydrationOnIdle, captureBoundaryError } from "#app/lib/sentry-start";
import { markHydrated } from "#app/lib/hydration";
import { AdPixel } from "#app/components/AdPixel";
import { AppShell } from "#app/components/layout/AppShell";
import { Analytics, analyticsInlineScript, safeJson } from "#app/components/layout/Analytics";
import * as ServerErrorPages from "#app/components/layout/ErrorPages";
import { ERROR_PAGE_ATTRIBUTE, loadedErrorPages, loadErrorPages, type ErrorPages } from "#app/components/layout/errorPagesLoader";
import { themeClass, usePendingTheme, useThemeEffects } from "#app/components/layout/ThemeSwitch";
import { ScriptsAfterPaint } from "#app/components/layout/ScriptsAfterPaint";
import { SnackbarHost } from "#app/components/ui/Snackbar";
import { TestModeBanner } from "#app/components/layout/TestModeBanner";

export const links: LinksFunction = () => [
  // No font preloads: measured with Lighthouse mobile, preloading the 400 and 700 files made the LCP 0,5–0,7 s later
  // (they share the slow connection with the event's picture and hold the first paint); see app/fonts.css, decision 130.
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/site.webmanifest" },
];

export const meta: MetaFunction = ({ error }) => {
  if (error) {
    const status = isRouteErrorResponse(error) ? error.status : 500;
    const title = status === 404 ? "Página no encontrada" : status === 403 ? "Sin permiso" : status < 500 ? "No pudimos abrir esta página" : "Algo salió mal de nuestro lado";
    return [{ title: `${title} · Tribuna` }, { name: "robots", content: "noindex" }];
  }
  return [
    { title: "Tribuna · Entradas para eventos en Argentina" },
    {
      name: "description",
      content: "Comprá entradas para recitales, fiestas, teatro y más. Pagá con Mercado Pago o transferencia.",
    },
  ];
};

/**
 * Pages that never show who is signed in (no site header) and are asked for by a crowd: the virtual queue's
 * page, which a waiting person's browser reloads every few seconds without JavaScript. Their root data carries
 * no user, so that refresh does not read the account from PostgreSQL (decision 205, docs/queue.md).
 */
const WITHOUT_USER = /^\/fila\/[^/]+\/?$/;
const showsUser = (pathname: string) => !WITHOUT_USER.test(pathname);

export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, headers } = await getRequestContext(request);
  const user = ctx.actor.kind === "user" && showsUser(new URL(request.url).pathname) ? await getUserById(ctx, ctx.actor.userId) : undefined;
  const { flash, clear } = readFlash(request);
  if (clear) headers.append("Set-Cookie", clear);
  const pixelId = new URL(request.url).searchParams.get("pixelId");
  const env = publicEnv();
  return data(
    {
      user: user ? toPublicUser(user) : null,
      theme: parseTheme(parseCookies(request.headers.get("cookie"))[THEME_KEY]),
      flash,
      pixelId: isValidPixelId(pixelId) ? pixelId : null,
      env,
      // Built here, so the snippet's text is not in every page's JavaScript (the browser only needs it in the HTML).
      analyticsScript: env.POSTHOG_KEY ? analyticsInlineScript(env.POSTHOG_KEY) : null,
    },
    { headers },
  );
}

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

/** Leaving a page whose root data has no user (the queue's) for one that shows it: read the root again. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  defaultShouldRevalidate || (!showsUser(currentUrl.pathname) && showsUser(nextUrl.pathname));

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root") as RootData | undefined;
}

/**
 * A route can opt out of the header and drawer (full-screen pages such as the
 * door scanner): `export const handle: ShellHandle = { shell: false }`.
 */
export type ShellHandle = { shell?: boolean };

/** Before first paint: resolves "system" to the device's scheme, so reloads never flash the wrong theme. */
function themeScript(theme: Theme) {
  if (theme !== "system") return null;
  return `(function(){var d=window.matchMedia('(prefers-color-scheme: dark)').matches;var c=document.documentElement.classList;c.toggle('dark',d);c.toggle('light',!d);})();`;
}

const THEME_COLORS = { dark: "#0f1115", light: "#ffffff" } as const;

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const theme = usePendingTheme() ?? root?.theme ?? DEFAULT_THEME;
  const bare = useMatches().some((match) => (match.handle as ShellHandle | undefined)?.shell === false);
  const testMode = root?.env.PAYMENTS_SANDBOX ?? false;
  const script = themeScript(theme);
  const nonce = useNonce();
  useThemeEffects(theme);
  useSentryRouteReporting();
  // A committed render: from here on an error is no longer a failed hydration (entry.client.tsx, decision 180).
  useEffect(markHydrated, []);
  // The error pages are not in every page's JavaScript: fetched once the page is interactive, for a later error.
  useEffect(() => afterHydrationOnIdle(() => void loadErrorPages()), []);
  // Public values only (server/env.ts publicEnv): entry.client reads SENTRY_DSN from here.
  const browserEnv = root?.env ? { ...root.env, MODE: import.meta.env.MODE } : null;

  return (
    <html
      lang="es-AR"
      className={themeClass(theme)}
      data-theme={theme}
      style={testMode ? ({ "--spacing-test-banner": "1.75rem" } as CSSProperties) : undefined}
      suppressHydrationWarning
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {theme === "system" ? (
          <>
            <meta name="theme-color" content={THEME_COLORS.dark} media="(prefers-color-scheme: dark)" />
            <meta name="theme-color" content={THEME_COLORS.light} media="(prefers-color-scheme: light)" />
          </>
        ) : (
          <meta name="theme-color" content={THEME_COLORS[theme]} />
        )}
        {script ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} /> : null}
        <Meta />
        <Links />
        {browserEnv ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: `window.__ENV=${safeJson(browserEnv)};` }} /> : null}
        <Analytics script={root?.analyticsScript} nonce={nonce} />
      </head>
      <body className="min-h-screen antialiased">
        {bare ? (
          <>
            {testMode ? <TestModeBanner /> : null}
            {children}
          </>
        ) : (
          <AppShell user={root?.user ?? null} theme={theme} testMode={testMode}>
            {children}
          </AppShell>
        )}
        <SnackbarHost flash={root?.flash ?? null} />
        <AdPixel pixelId={root?.pixelId} nonce={nonce} />
        <ScrollRestoration nonce={nonce} />
        <ScriptsAfterPaint nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  useLoaderData<typeof loader>();
  return <Outlet />;
}

/**
 * The error pages: on the server, the module itself (the document always carries the whole page); in the
 * browser, their own chunk (errorPagesLoader.ts, decision 239). entry.client loads it before hydrating a page
 * the server drew as an error; after a navigation that ends in one, Suspense shows nothing for the moment it
 * takes to arrive. `import.meta.env.SSR` is false in the browser build, so the static import above is left out.
 */
function errorPages(): ErrorPages {
  if (import.meta.env.SSR) return ServerErrorPages;
  const pages = loadedErrorPages();
  if (pages) return pages;
  throw loadErrorPages();
}

export function ErrorBoundary() {
  const error = useRouteError();
  const expected = isRouteErrorResponse(error) && error.status < 500;
  useEffect(() => {
    if (!expected) captureBoundaryError(error);
  }, [error, expected]);
  return (
    <>
      <span hidden {...{ [ERROR_PAGE_ATTRIBUTE]: "" }} />
      <Suspense fallback={null}>
        <ErrorPage error={error} />
      </Suspense>
    </>
  );
}

function ErrorPage({ error }: { error: unknown }) {
  const root = useRootData();
  const { ForbiddenPage, NotFoundPage, RequestErrorPage, ServerErrorPage } = errorPages();
  // Every route without its own boundary ends here: a refusal (403) or another answer about the request (4xx)
  // is shown as what it is, with what to do; only a fault is "algo salió mal" (500).
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (isRouteErrorResponse(error) && error.status === 403) return <ForbiddenPage message={messageOf(error.data)} organizer={root?.user?.isOrganizer ?? false} />;
  if (isRouteErrorResponse(error) && error.status < 500) return <RequestErrorPage status={error.status} message={messageOf(error.data)} />;
  return <ServerErrorPage details={import.meta.env.DEV ? describeError(error) : null} />;
}

/** The person-facing message a loader threw (`pageErrorResponse` sends `{ message }`; a plain Response, its text). */
function messageOf(data: unknown): string | null {
  if (typeof data === "string") return data.trim() || null;
  if (data && typeof data === "object" && typeof (data as { message?: unknown }).message === "string") return (data as { message: string }).message;
  return null;
}

/** Development only: what went wrong, for the developer looking at the page. */
function describeError(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}\n${safeJson(error.data)}`;
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
