import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { ANALYTICS_IDLE_ROUNDS, analyticsInlineScript } from "./Analytics";

type Config = { before_send: (event: unknown) => unknown; disable_session_recording?: boolean };

/** Runs the inline snippet as a page would (without fetching the library) and returns what it passed to posthog.init. */
function initConfig(): Config {
  const page: Record<string, unknown> = {
    document: {
      readyState: "complete",
      createElement: () => ({}),
      getElementsByTagName: () => [{ parentNode: { insertBefore: () => undefined } }],
    },
    setTimeout: () => 0,
  };
  page.window = page;
  vm.runInNewContext(analyticsInlineScript("phc_prueba"), page);
  const queued = (page.posthog as { _i: [string, Config, string][] })._i;
  expect(queued[0][0]).toBe("phc_prueba");
  return queued[0][1];
}

describe("the analytics snippet", () => {
  it("sends no URL with a token: before_send strips every query but utm_* from page views, referrers and clicked links; no session recordings", () => {
    const config = initConfig();
    expect(config.disable_session_recording).toBe(true);
    const secret = "Zq9x-TOKEN-de-la-compra";
    const sent = config.before_send({
      event: "$pageview",
      properties: {
        $current_url: `https://tribuna.ar/tickets/0b7e3c1e?t=${secret}&utm_campaign=verano`,
        $referrer: `https://tribuna.ar/cuenta/verificar-email?token=${secret}`,
        $elements_chain: `a:attr__href="/tickets/0b7e3c1e/pdf?t=${secret}"nth-child="1"`,
        $pathname: "/tickets/0b7e3c1e",
        $title: "¿Vas? Tus entradas",
      },
      $set_once: { $initial_current_url: `https://tribuna.ar/checkout/status/approved?billingId=1&t=${secret}` },
    });
    expect(JSON.stringify(sent)).not.toContain(secret);
    expect(sent).toEqual({
      event: "$pageview",
      properties: {
        $current_url: "https://tribuna.ar/tickets/0b7e3c1e?utm_campaign=verano",
        $referrer: "https://tribuna.ar/cuenta/verificar-email",
        $elements_chain: 'a:attr__href="/tickets/0b7e3c1e/pdf"nth-child="1"',
        $pathname: "/tickets/0b7e3c1e",
        $title: "¿Vas? Tus entradas",
      },
      $set_once: { $initial_current_url: "https://tribuna.ar/checkout/status/approved" },
    });
  });
});

/** A page still loading: its load event and idle callbacks run when the test says; records the scripts added. */
function loadingPage() {
  const loadListeners: (() => void)[] = [];
  const idle: (() => void)[] = [];
  const added: { src?: string }[] = [];
  const page: Record<string, unknown> = {
    document: {
      readyState: "loading",
      createElement: () => ({}),
      getElementsByTagName: () => [{ parentNode: { insertBefore: (script: { src?: string }) => added.push(script) } }],
    },
    addEventListener: (type: string, listener: () => void) => type === "load" && loadListeners.push(listener),
    requestIdleCallback: (callback: () => void) => idle.push(callback),
  };
  page.window = page;
  vm.runInNewContext(analyticsInlineScript("phc_prueba"), page);
  return { page, added, load: () => loadListeners.splice(0).forEach((l) => l()), runIdle: () => idle.splice(0).forEach((c) => c()) };
}

describe("the analytics library loads once the page is interactive (decision 239)", () => {
  it("not while the page loads and hydrates: after load, on an idle moment once hydrated; calls made meanwhile are queued", () => {
    const { page, added, load, runIdle } = loadingPage();
    expect(added).toHaveLength(0);
    (page.posthog as { capture: (event: string) => void }).capture("antes");
    load();
    runIdle(); // not hydrated yet: another idle round
    expect(added).toHaveLength(0);
    page.__tribunaHydrated = true;
    runIdle();
    expect(added.map((s) => s.src)).toEqual(["/ingest/static/array.js"]);
    expect(JSON.stringify(page.posthog)).toContain("antes");
  });

  it("a page that never hydrates gets its analytics after a few idle rounds", () => {
    const { added, load, runIdle } = loadingPage();
    load();
    for (let round = 1; round < ANALYTICS_IDLE_ROUNDS; round++) runIdle();
    expect(added).toHaveLength(0);
    runIdle();
    expect(added).toHaveLength(1);
  });
});
