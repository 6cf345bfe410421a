import { scrubberScript } from "#common/analytics-urls";
import { HYDRATED_FLAG } from "#app/lib/hydration";

/**
 * Product analytics (PostHog), only when POSTHOG_KEY is configured. Events go
 * to our own origin (/ingest, app/routes/ingest.$.ts), which forwards them to
 * POSTHOG_HOST; the library itself is fetched through the same proxy, async.
 * Every event leaves the browser with its URLs stripped of their query but
 * utm_* (`before_send`, common/analytics-urls.ts): purchase links carry their
 * token in `?t=`. No session recordings: they would replay ticket pages.
 */
export const ANALYTICS_PROXY_PATH = "/ingest";

/** How long an idle callback may wait for a quiet main thread before the library is fetched anyway. */
export const ANALYTICS_IDLE_TIMEOUT_MS = 2_000;
/** Idle rounds to wait for hydration: a page that never hydrates still gets its analytics. */
export const ANALYTICS_IDLE_ROUNDS = 5;

/**
 * PostHog's loader stub (queues calls until the library arrives), then init. Unlike PostHog's own snippet, the
 * library (~60 kB) is not fetched at once: after the window's `load`, on an idle moment once React has hydrated
 * (`window.__tribunaHydrated`, app/lib/hydration.ts) or after a few idle rounds without it, so it never competes
 * with the page's own JavaScript for a slow phone (decision 239). Calls made meanwhile, the page view included,
 * wait in the stub's queue.
 */
export function analyticsInlineScript(apiKey: string): string {
  const config = {
    api_host: ANALYTICS_PROXY_PATH,
    person_profiles: "identified_only",
    capture_pageview: "history_change",
    respect_dnt: true,
    disable_session_recording: true,
  };
  return (
    '!function(t,e){var o,n,p,r;e.__SV||(window.posthog=e,e._i=[],e.init=function(i,s,a){function g(t,e){var o=e.split(".");' +
    "2==o.length&&(t=t[o[0]],e=o[1]),t[e]=function(){t.push([e].concat(Array.prototype.slice.call(arguments,0)))}}" +
    'function L(){(p=t.createElement("script")).type="text/javascript",p.crossOrigin="anonymous",p.async=!0,' +
    'p.src=s.api_host.replace(".i.posthog.com","-assets.i.posthog.com")+"/static/array.js",' +
    '(r=t.getElementsByTagName("script")[0]).parentNode.insertBefore(p,r)}' +
    // Our change to PostHog's stub: the library is fetched once the page is interactive (decision 239), see below.
    `var W=0;function I(){var c=function(){window.${HYDRATED_FLAG}||++W>=${ANALYTICS_IDLE_ROUNDS}?L():I()};` +
    `window.requestIdleCallback?requestIdleCallback(c,{timeout:${ANALYTICS_IDLE_TIMEOUT_MS}}):setTimeout(c,${ANALYTICS_IDLE_TIMEOUT_MS / 2})}` +
    '"complete"===t.readyState?I():window.addEventListener("load",I);var u=e;for(void 0!==a?u=e[a]=[]:a="posthog",' +
    'u.people=u.people||[],u.toString=function(t){var e="posthog";return"posthog"!==a&&(e+="."+a),t||(e+=" (stub)"),e},' +
    'u.people.toString=function(){return u.toString(1)+".people (stub)"},' +
    'o="init capture register register_once register_for_session unregister unregister_for_session getFeatureFlag ' +
    "getFeatureFlagPayload isFeatureEnabled reloadFeatureFlags onFeatureFlags onSessionId identify setPersonProperties " +
    'group resetGroups reset get_distinct_id get_session_id alias set_config opt_in_capturing opt_out_capturing ' +
    'has_opted_out_capturing captureException".split(" "),n=0;n<o.length;n++)g(u,o[n]);e._i.push([i,s,a])},e.__SV=1)}' +
    "(document,window.posthog||[]);" +
    `posthog.init(${safeJson(apiKey)},Object.assign(${safeJson(config)},{before_send:${scrubberScript()}}));`
  );
}

/** JSON that is safe inside an inline <script>. */
export function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** The snippet root's loader built with `analyticsInlineScript` (none without POSTHOG_KEY). */
export function Analytics({ script, nonce }: { script: string | null | undefined; nonce?: string }) {
  if (!script) return null;
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} />;
}
