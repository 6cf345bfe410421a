/**
 * The live view's stream (`/vivos/{slug}`): server-sent events of the `liveNight` subscription. EventSource
 * reconnects by itself when the network drops, which is right for a lost signal and wrong for a refusal:
 * the server ends the stream with FORBIDDEN, UNAUTHENTICATED or TOO_MANY_REQUESTS (decision 147), and
 * reconnecting would be refused again, forever. Those close the source and show the message.
 */

/** Refusals that end the stream for good: reconnecting cannot change them. */
export const FINAL_STREAM_CODES = new Set(["FORBIDDEN", "UNAUTHENTICATED", "TOO_MANY_REQUESTS"]);

type StreamPayload<T> = { data?: T | null; errors?: { message: string; extensions?: { code?: string } }[] };

/** What one "next" event means: new data, a refusal that ends the stream, or nothing to do. */
export function readLiveEvent<T>(raw: string): { kind: "data"; data: T } | { kind: "ended"; message: string } | { kind: "ignore" } {
  let payload: StreamPayload<T>;
  try {
    payload = JSON.parse(raw) as StreamPayload<T>;
  } catch {
    return { kind: "ignore" };
  }
  const final = payload.errors?.find((e) => FINAL_STREAM_CODES.has(e.extensions?.code ?? ""));
  if (final) return { kind: "ended", message: final.message };
  return payload.data ? { kind: "data", data: payload.data } : { kind: "ignore" };
}

/** The part of EventSource the live view uses (the browser's, or a stand-in in tests). */
export interface LiveSource {
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

/** Listens to the stream at `url`; answers how to stop. `onEnded` is called once, with the server's message, when it refuses. */
export function listenLive<T>(
  open: (url: string) => LiveSource,
  url: string,
  handlers: { onData: (data: T) => void; onConnected: (connected: boolean) => void; onEnded: (message: string) => void },
): () => void {
  const source = open(url);
  let ended = false;
  source.onopen = () => handlers.onConnected(true);
  source.onerror = () => handlers.onConnected(false);
  source.addEventListener("next", (event) => {
    if (ended) return;
    const read = readLiveEvent<T>(event.data);
    if (read.kind === "data") handlers.onData(read.data);
    else if (read.kind === "ended") {
      ended = true;
      source.close();
      handlers.onConnected(false);
      handlers.onEnded(read.message);
    }
  });
  return () => source.close();
}
