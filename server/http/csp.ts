import crypto from "node:crypto";

/**
 * The Content-Security-Policy of our HTML pages (decision 119):
 * a script runs only if it carries this response's nonce, or was loaded by
 * one that does ('strict-dynamic': Remix's module imports, Mercado Pago's
 * SDK added by our wallet component, the pixel's loader). Everything else
 * is same-origin, plus what Mercado Pago's button and Meta's pixel need.
 *
 * Every response gets its own nonce, also when its HTML comes from the
 * micro-cache (server/http/page-cache.ts swaps it for a fresh one).
 */
const MERCADO_PAGO = ["https://*.mercadopago.com", "https://*.mercadopago.com.ar", "https://*.mercadolibre.com", "https://*.mlstatic.com"];
const META_PIXEL = ["https://connect.facebook.net", "https://www.facebook.com"];
const GOOGLE_SIGN_IN = ["https://accounts.google.com"];

/** 128 random bits, base64: what CSP asks of a nonce. */
export function cspNonce(): string {
  return crypto.randomBytes(16).toString("base64");
}

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    // 'unsafe-inline' and https: are ignored by browsers that know nonces; they only keep very old ones working.
    `script-src 'nonce-${nonce}' 'strict-dynamic' 'unsafe-inline' https:`,
    // React's style attributes (progress bars, charts) cannot carry a nonce.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self' ${[...MERCADO_PAGO, ...META_PIXEL].join(" ")}`,
    `frame-src ${MERCADO_PAGO.join(" ")}`,
    // Sentry's session replay compresses in a worker it starts from a blob: URL. Only a script that already
    // passed script-src can make one, so this lets nothing new run (decision 194).
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "media-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    // A form posts here; its redirect may go on to Mercado Pago or Google (browsers apply form-action to redirects).
    `form-action 'self' ${[...MERCADO_PAGO, ...GOOGLE_SIGN_IN].join(" ")}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

const NONCE_IN_POLICY = /'nonce-([A-Za-z0-9+/=]+)'/;

/** The nonce a policy names, if any (the micro-cache swaps it on every copy it serves). */
export function nonceOfPolicy(policy: string | null): string | null {
  return policy?.match(NONCE_IN_POLICY)?.[1] ?? null;
}

/**
 * A page handler with a fresh nonce per request: the handler renders with it
 * (entry.server.tsx puts it on every script) and HTML responses carry the
 * policy that names it. Other responses keep the default headers
 * (server/http/security-headers.ts: frame-ancestors only).
 */
export function withContentSecurityPolicy(render: (request: Request, nonce: string) => Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    const nonce = cspNonce();
    const response = await render(request, nonce);
    if (isHtml(response) && !response.headers.has("Content-Security-Policy")) {
      response.headers.set("Content-Security-Policy", contentSecurityPolicy(nonce));
    }
    return response;
  };
}

export function isHtml(response: Response): boolean {
  return /^text\/html\b/i.test(response.headers.get("Content-Type") ?? "");
}
