import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { analyticsInlineScript } from "./Analytics";

type Config = { before_send: (event: unknown) => unknown; disable_session_recording?: boolean };

/** Runs the inline snippet as a page would (without fetching the library) and returns what it passed to posthog.init. */
function initConfig(): Config {
  const page: Record<string, unknown> = {
    document: {
      createElement: () => ({}),
      getElementsByTagName: () => [{ parentNode: { insertBefore: () => undefined } }],
    },
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
