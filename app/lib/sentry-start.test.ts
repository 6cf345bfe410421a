import { describe, expect, it } from "vitest";
import { afterHydrationOnIdle, HYDRATION_WAIT_MS, IDLE_TIMEOUT_MS } from "./sentry-start";

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
