import { describe, expect, it } from "vitest";
import { isReactRootFailure, remixDataArrived } from "./hydration";

/** A document still being read, whose DOMContentLoaded the test fires. */
function loadingDocument() {
  const listeners: (() => void)[] = [];
  const doc = { readyState: "loading", addEventListener: (_: string, listener: () => void) => listeners.push(listener) };
  return { doc: doc as unknown as Document, parsed: () => listeners.forEach((listener) => listener()) };
}

function streamWindow() {
  const controller = { closed: false, close() { this.closed = true; } };
  return { win: { __remixContext: { streamController: controller } } as unknown as Window, controller };
}

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
};

describe("hydration waits for the page's data (decision 180)", () => {
  it("starts at once on a document already read", async () => {
    const { win } = streamWindow();
    expect(await settled(remixDataArrived(win, { readyState: "interactive" } as Document))).toBe(true);
  });

  it("waits for Remix's stream to close, which still closes", async () => {
    const { doc } = loadingDocument();
    const { win, controller } = streamWindow();
    const arrived = remixDataArrived(win, doc);
    expect(await settled(arrived)).toBe(false);
    (win as unknown as { __remixContext: { streamController: { close(): void } } }).__remixContext.streamController.close();
    expect(controller.closed).toBe(true);
    expect(await settled(arrived)).toBe(true);
  });

  it("or for the document to be read, without a stream", async () => {
    const { doc, parsed } = loadingDocument();
    const arrived = remixDataArrived({} as Window, doc);
    expect(await settled(arrived)).toBe(false);
    parsed();
    expect(await settled(arrived)).toBe(true);
  });

  it("tells React giving up on a root from any other error", () => {
    expect(isReactRootFailure(new Error("Minified React error #345; visit https://reactjs.org/docs/error-decoder.html?invariant=345"))).toBe(true);
    expect(isReactRootFailure(new Error("Root did not complete. This is a bug in React."))).toBe(true);
    expect(isReactRootFailure(new TypeError("Cannot read properties of undefined (reading 'map')"))).toBe(false);
    expect(isReactRootFailure(undefined)).toBe(false);
  });
});
