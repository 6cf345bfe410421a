import { createGraphQLError, type Plugin } from "graphql-yoga";
import { readAtMost } from "#server/http/body-limit";

const CONTENT_LENGTH = /^\d+$/;

const tooLarge = () =>
  createGraphQLError("El pedido es demasiado grande.", { extensions: { http: { status: 413 }, code: "PAYLOAD_TOO_LARGE" } });
const badLength = () => createGraphQLError("El encabezado Content-Length no es válido.", { extensions: { http: { status: 400 }, code: "BAD_REQUEST" } });

/**
 * The body-size limit for GraphQL, in place of yoga's own (`maxRequestBodySize`), which pipes every POST body
 * through a counting TransformStream: with its AbortController and the DOMException Node builds when the
 * pipeline finishes, that was about a tenth of a `createOrder`'s CPU (decision 142). Here:
 * - a declared length is checked (digits only, at most `limit`) and that is all: Node's HTTP parser reads
 *   exactly Content-Length bytes (and refuses a request that also says chunked), so the body cannot be longer;
 * - a body without a declared length (chunked) is read up to `limit` bytes and refused past it, as before.
 * Must come after yoga's request parsers: it wraps whichever one was chosen (yoga puts user plugins after them).
 */
export function limitRequestBody(limit: number): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      const contentLength = request.headers.get("content-length");
      if (contentLength !== null) {
        if (!CONTENT_LENGTH.test(contentLength)) throw badLength();
        if (Number(contentLength) > limit) throw tooLarge();
        return;
      }
      if (!requestParser || !request.body) return;
      const parse = requestParser;
      setRequestParser(async (chunked) => {
        const bytes = await readAtMost(chunked.body as unknown as AsyncIterable<Uint8Array>, limit);
        if (!bytes) throw tooLarge();
        return parse(new fetchAPI.Request(chunked.url, { method: chunked.method, headers: chunked.headers, signal: chunked.signal, body: new Uint8Array(bytes) }));
      });
    },
  };
}
