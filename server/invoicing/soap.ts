/**
 * The little SOAP ARCA's services need (decision 211): an envelope posted with fetch, and a reader for the
 * flat answers they return. Every call has a timeout: a request that takes longer is aborted and reported
 * as `ArcaUnavailableError`, so its caller asks ARCA what happened before sending again.
 */

/** ARCA did not answer (network, timeout, HTTP 5xx without a SOAP answer): try again later. */
export class ArcaUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ArcaUnavailableError";
  }
}

/** A SOAP fault from ARCA (WSAA answers its errors this way): its code and text as ARCA wrote them. */
export class ArcaFaultError extends Error {
  constructor(
    readonly faultCode: string,
    readonly faultString: string,
  ) {
    super(`ARCA respondió ${faultCode}: ${faultString}`);
    this.name = "ArcaFaultError";
  }
}

export function escapeXml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

export function unescapeXml(value: string): string {
  return value
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&amp;/g, "&");
}

function tagPattern(name: string, flags: string) {
  return new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}>)`, flags);
}

/** The raw inner XML of the first element called `name` (any namespace prefix), or null. */
export function xmlElement(xml: string, name: string): string | null {
  const match = tagPattern(name, "").exec(xml);
  return match ? (match[1] ?? "") : null;
}

/** The raw inner XML of every element called `name`. */
export function xmlElements(xml: string, name: string): string[] {
  return [...xml.matchAll(tagPattern(name, "g"))].map((m) => m[1] ?? "");
}

/** The text of the first element called `name`, unescaped and trimmed, or null. */
export function xmlText(xml: string, name: string): string | null {
  const inner = xmlElement(xml, name);
  return inner === null ? null : unescapeXml(inner).trim();
}

/** Posts a SOAP 1.1 envelope; returns the answer's Body, or throws ArcaFaultError / ArcaUnavailableError. */
export async function soapCall(url: string, action: string, body: string, namespaces: Record<string, string>, timeoutMs: number): Promise<string> {
  const xmlns = Object.entries(namespaces)
    .map(([prefix, uri]) => ` xmlns:${prefix}="${uri}"`)
    .join("");
  const envelope = `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"${xmlns}><soapenv:Header/><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
  let text: string;
  let status: number;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${action}"` },
      body: envelope,
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new ArcaUnavailableError(timedOut ? `ARCA no respondió en ${timeoutMs} ms (${action})` : `No se pudo hablar con ARCA (${action}): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const fault = xmlElement(text, "Fault");
  if (fault !== null) throw new ArcaFaultError(xmlText(fault, "faultcode") ?? "", xmlText(fault, "faultstring") ?? "");
  const bodyXml = xmlElement(text, "Body");
  if (status >= 400 || bodyXml === null) throw new ArcaUnavailableError(`ARCA respondió HTTP ${status} sin una respuesta SOAP (${action})`);
  return bodyXml;
}
