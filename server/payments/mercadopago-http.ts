/**
 * The one place that talks HTTP to Mercado Pago's REST API (plain fetch, so
 * MSW intercepts it in tests). Tokens travel only in the Authorization
 * header and never appear in errors or logs.
 */
export const MERCADOPAGO_API = "https://api.mercadopago.com";
const TIMEOUT_MS = 10_000;

export interface MercadoPagoResponse<T> {
  status: number;
  json: T | null;
}

export async function mercadoPagoRequest<T>(
  method: "GET" | "POST" | "PUT",
  path: string,
  options: { token?: string; body?: unknown; idempotencyKey?: string; timeoutMs?: number } = {},
): Promise<MercadoPagoResponse<T>> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.idempotencyKey) headers["x-idempotency-key"] = options.idempotencyKey;
  let response: Response;
  try {
    response = await fetch(`${MERCADOPAGO_API}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS),
    });
  } catch (cause) {
    const reason = cause instanceof Error ? cause.name : "error";
    throw new MercadoPagoApiError(`${method} ${path.split("?")[0]} falló sin respuesta (${reason})`, 0, null);
  }
  const text = await response.text();
  let json: T | null = null;
  if (text) {
    try {
      json = JSON.parse(text) as T;
    } catch {
      json = null;
    }
  }
  return { status: response.status, json };
}

export class MercadoPagoApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
    this.name = "MercadoPagoApiError";
  }

  static from(method: string, path: string, response: MercadoPagoResponse<unknown>) {
    const b = (response.json ?? {}) as { message?: unknown; error?: unknown };
    const detail = [b.error, b.message].filter(Boolean).map(String).join(": ");
    return new MercadoPagoApiError(`Mercado Pago ${method} ${path} respondió ${response.status}${detail ? ` (${detail})` : ""}`, response.status, response.json);
  }
}
