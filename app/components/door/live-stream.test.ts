import { describe, expect, it } from "vitest";
import { listenLive, type LiveSource } from "./live-stream";

/** A stand-in for the browser's EventSource: records what the page does with it and lets the test play the server. */
class FakeSource implements LiveSource {
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private listeners: ((event: MessageEvent<string>) => void)[] = [];
  addEventListener(_type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.push(listener);
  }
  close() {
    this.closed = true;
  }
  send(payload: unknown) {
    for (const listener of this.listeners) listener({ data: JSON.stringify(payload) } as MessageEvent<string>);
  }
}

function watch() {
  const source = new FakeSource();
  const seen = { data: [] as unknown[], ended: [] as string[], connected: [] as boolean[] };
  listenLive<{ liveNight: { entered: number } }>(() => source, "/api/graphql?query=…", {
    onData: (d) => seen.data.push(d),
    onConnected: (c) => seen.connected.push(c),
    onEnded: (m) => seen.ended.push(m),
  });
  return { source, seen };
}

describe("the live view's stream on the page", () => {
  it.each(["FORBIDDEN", "UNAUTHENTICATED", "TOO_MANY_REQUESTS"])("closes its EventSource and shows the message when the server ends the stream with %s", (code) => {
    const { source, seen } = watch();
    source.onopen?.(new Event("open"));
    source.send({ data: { liveNight: { entered: 3 } } });
    source.send({ errors: [{ message: "Ya no tenés acceso a la vista en vivo de este evento.", extensions: { code } }] });
    // Closed: the browser does not reconnect a closed EventSource.
    expect(source.closed).toBe(true);
    expect(seen.ended).toEqual(["Ya no tenés acceso a la vista en vivo de este evento."]);
    expect(seen.data).toEqual([{ liveNight: { entered: 3 } }]);
    expect(seen.connected.at(-1)).toBe(false);
    // Nothing after the end is shown.
    source.send({ data: { liveNight: { entered: 4 } } });
    expect(seen.data).toHaveLength(1);
  });

  it("keeps listening (and reconnecting) after a network error or any other error", () => {
    const { source, seen } = watch();
    source.onerror?.(new Event("error"));
    source.send({ errors: [{ message: "Algo falló", extensions: { code: "INTERNAL_SERVER_ERROR" } }] });
    source.send({ data: { liveNight: { entered: 1 } } });
    expect(source.closed).toBe(false);
    expect(seen.ended).toEqual([]);
    expect(seen.data).toEqual([{ liveNight: { entered: 1 } }]);
  });
});
