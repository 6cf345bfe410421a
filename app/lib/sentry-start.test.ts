import { describe, expect, it } from "vitest";
import { afterHydrationOnIdle, bufferEarlyErrors, EARLY_ERRORS_MAX, HYDRATION_WAIT_MS, IDLE_TIMEOUT_MS, startSentry, type EarlyError } from "./sentry-start";

/** A window whose load event, idle callbacks and timers run when the test says so. */
function fakeWindow(options: { readyState: DocumentReadyState; idle: boolean }) {
  const loadListeners: (() => void)[] = [];
  const idleQueue: { callback: () => void; timeout?: number }[] = [];
  const timers: { callback: () => void; ms: number }[] = [];
  const win = {
    document: { readyState: options.readyState },
    addEventListener: (type: string, listener: () => void) => {
      if (type === "load") loadListeners.push(listener);
    },
    setTimeout: (callback: () => void, ms: number) => timers.push({ callback, ms }),
    requestIdleCallback: options.idle
      ? (callback: () => void, opts?: { timeout: number }) => idleQueue.push({ callback, timeout: opts?.timeout })
      : undefined,
  };
  return {
    win: win as unknown as Parameters<typeof afterHydrationOnIdle>[1],
    load: () => loadListeners.splice(0).forEach((l) => l()),
    runIdle: () => idleQueue.splice(0).forEach((i) => i.callback()),
    runTimers: () => timers.splice(0).forEach((t) => t.callback()),
    idleQueue,
    timers,
  };
}

describe("Sentry starts after the page is interactive, on idle", () => {
  it("waits for load, then for an idle moment once hydrated; never during hydration", () => {
    const page = fakeWindow({ readyState: "interactive", idle: true });
    let hydrated = false;
    let started = 0;
    afterHydrationOnIdle(() => started++, page.win, () => hydrated);
    expect(page.idleQueue).toHaveLength(0);
    page.load();
    expect(started).toBe(0);
    expect(page.idleQueue[0]?.timeout).toBe(IDLE_TIMEOUT_MS);
    page.runIdle(); // still hydrating: asks for another idle moment
    expect(started).toBe(0);
    hydrated = true;
    page.runIdle();
    expect(started).toBe(1);
    page.runIdle();
    expect(started).toBe(1);
  });

  it("without requestIdleCallback (Safari) it uses a timer, and a page already loaded does not wait for load", () => {
    const page = fakeWindow({ readyState: "complete", idle: false });
    let started = 0;
    afterHydrationOnIdle(() => started++, page.win, () => true);
    expect(started).toBe(0);
    expect(page.timers[0]?.ms).toBe(IDLE_TIMEOUT_MS / 2);
    page.runTimers();
    expect(started).toBe(1);
  });

  it("starts anyway when the page never reports hydration (monitoring a broken page matters most)", () => {
    const page = fakeWindow({ readyState: "complete", idle: true });
    let started = 0;
    const realNow = Date.now;
    let now = realNow();
    Date.now = () => now;
    try {
      afterHydrationOnIdle(() => started++, page.win, () => false);
      page.runIdle();
      expect(started).toBe(0);
      now += HYDRATION_WAIT_MS;
      page.runIdle();
      expect(started).toBe(1);
    } finally {
      Date.now = realNow;
    }
  });
});

/** An uncaught error as the browser reports it to the window. */
function uncaught(win: EventTarget, error: unknown) {
  win.dispatchEvent(Object.assign(new Event("error"), { error, message: error instanceof Error ? error.message : String(error) }));
}
function rejected(win: EventTarget, reason: unknown) {
  win.dispatchEvent(Object.assign(new Event("unhandledrejection"), { reason }));
}

describe("errors before Sentry loads are not lost (decision 239)", () => {
  it("keeps uncaught errors and rejections until stop, then stops listening", () => {
    const win = new EventTarget();
    const buffer = bufferEarlyErrors(win as unknown as Window);
    const boom = new Error("falló al hidratar");
    uncaught(win, boom);
    rejected(win, "sin respuesta");
    expect(buffer.stop()).toEqual([
      { kind: "error", error: boom },
      { kind: "unhandledrejection", error: "sin respuesta" },
    ]);
    uncaught(win, new Error("después"));
    expect(buffer.stop()).toEqual([]);
  });

  it("leaves a failed hydration to entry.client, which reports it tagged", () => {
    const win = new EventTarget();
    const buffer = bufferEarlyErrors(win as unknown as Window);
    uncaught(win, new Error("Minified React error #345; visit https://reactjs.org/docs/error-decoder.html?invariant=345"));
    expect(buffer.stop()).toEqual([]);
  });

  it("keeps at most EARLY_ERRORS_MAX of a page failing in a loop", () => {
    const win = new EventTarget();
    const buffer = bufferEarlyErrors(win as unknown as Window);
    for (let i = 0; i < EARLY_ERRORS_MAX + 10; i++) uncaught(win, new Error(`vez ${i}`));
    expect(buffer.stop()).toHaveLength(EARLY_ERRORS_MAX);
  });

  it("hands the SDK, right after it starts, what failed while it was waiting for idle", async () => {
    const win = new EventTarget();
    let start: () => void = () => {};
    const calls: string[] = [];
    const reported: EarlyError[][] = [];
    const sdk = {
      initSentryClient: () => calls.push("init"),
      captureEarlyErrors: (errors: EarlyError[]) => {
        calls.push("early");
        reported.push(errors);
      },
    } as unknown as typeof import("./sentry.client");
    const loading = startSentry({ SENTRY_DSN: "https://key@sentry.example/1" }, (go) => (start = go), async () => sdk, win as unknown as Window);
    const early = new Error("antes de Sentry");
    uncaught(win, early);
    rejected(win, new Error("promesa rechazada"));
    start();
    await loading;
    expect(calls).toEqual(["init", "early"]);
    expect(reported[0].map((e) => [e.kind, (e.error as Error).message])).toEqual([
      ["error", "antes de Sentry"],
      ["unhandledrejection", "promesa rechazada"],
    ]);
    // From here on the SDK's own handlers see errors: the buffer no longer keeps them.
    uncaught(win, new Error("con Sentry andando"));
    expect(reported).toHaveLength(1);
  });
});
