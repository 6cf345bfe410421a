/**
 * What product analytics may learn from a URL: the path and campaign tags
 * (`utm_*`), never the rest of the query. Purchase links carry their access
 * token in `?t=`, sign-in and verification links in `?token=`; a page view,
 * a referrer or a clicked link's `href` with them would hand the analytics
 * provider a way into a buyer's tickets. The browser applies this before
 * sending (app/components/layout/Analytics.tsx, PostHog's `before_send`) and
 * the /ingest proxy again before forwarding (app/routes/ingest.server.ts).
 */

/** Query parameters kept: campaign tags only. */
export const KEPT_QUERY_PARAM = /^utm_[a-z0-9_]+$/i;

/**
 * A URL or path followed by a query, wherever it appears in a string (a whole
 * `$current_url`, or an `href="…"` inside an autocaptured element chain). A
 * `?` only counts after something that starts like a URL or a path, so
 * ordinary text with a question mark is left alone.
 */
export const URL_WITH_QUERY = /((?:[a-z][a-z0-9+.-]*:\/\/|\/)[^\s"'<>?#]*)\?([^\s"'<>#]*)/gi;

/** `text` with the query of every URL in it reduced to its utm_* parameters. */
export function stripUrlQueries(text: string): string {
  return text.replace(URL_WITH_QUERY, (_match, base: string, query: string) => {
    const kept = query.split("&").filter((pair) => KEPT_QUERY_PARAM.test(pair.split("=")[0]));
    return kept.length ? `${base}?${kept.join("&")}` : base;
  });
}

/** Every string inside `value` (objects and arrays, any depth) through stripUrlQueries. */
export function scrubAnalyticsValue(value: unknown): unknown {
  if (typeof value === "string") return stripUrlQueries(value);
  if (Array.isArray(value)) return value.map(scrubAnalyticsValue);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, scrubAnalyticsValue(inner)]));
  return value;
}

/** A JS string literal that is safe inside an inline <script>. */
function literal(text: string): string {
  return JSON.stringify(text).replace(/</g, "\\u003c");
}

/**
 * The same rule as a browser function expression (ES5, for the inline
 * snippet), built from the same two patterns: `function(event){…}` returning
 * the event with every string scrubbed.
 */
export function scrubberScript(): string {
  return (
    "function(v){" +
    `var K=new RegExp(${literal(KEPT_QUERY_PARAM.source)},"i"),R=new RegExp(${literal(URL_WITH_QUERY.source)},"gi");` +
    'function s(t){return t.replace(R,function(m,b,q){var k=q.split("&").filter(function(p){return K.test(p.split("=")[0])});return k.length?b+"?"+k.join("&"):b})}' +
    'function w(x){if(typeof x=="string")return s(x);if(x&&typeof x=="object"){for(var k in x)if(Object.prototype.hasOwnProperty.call(x,k))x[k]=w(x[k])}return x}' +
    "return w(v)}"
  );
}
