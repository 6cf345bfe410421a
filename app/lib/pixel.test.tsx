import { describe, expect, it } from "vitest";
import { AdPixel } from "#app/components/AdPixel";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import { isValidPixelId, pixelInlineScript, pixelNoscriptUrl, PIXEL_SCRIPT_SRC } from "./pixel";
import { loadPixel } from "./pixel-client";
import { isValidPixelId as sharedRule } from "#common/validation";

const NOT_DIGITS = ["abc", "123abc", "12.5", "-1", " 123", "123 ", "1e9", "0x1F", "١٢٣", "123');alert(1);//", ""];

describe("pixel id rule", () => {
  it("is the same as the shared validator's", () => {
    for (const value of [...NOT_DIGITS, "0", "123456", "0012", null, undefined]) {
      expect(isValidPixelId(value)).toBe(sharedRule(value));
    }
    expect(isValidPixelId("123456")).toBe(true);
  });
});

describe("pixel script", () => {
  it("is built only for all-digit ids", () => {
    for (const value of [...NOT_DIGITS, null, undefined]) {
      expect(pixelInlineScript(value)).toBeNull();
      expect(pixelNoscriptUrl(value)).toBeNull();
    }
    const script = pixelInlineScript("987654321")!;
    expect(script).toContain("fbq('init','987654321')");
    expect(script).toContain("fbq('track','PageView')");
    expect(script).toContain(PIXEL_SCRIPT_SRC);
    expect(pixelNoscriptUrl("987654321")).toBe("https://www.facebook.com/tr?id=987654321&ev=PageView&noscript=1");
  });
});

describe("pixel script in the page", () => {
  /** Runs the inline script as a browser would, against a page that is still loading. */
  function runInLoadingPage(script: string) {
    const inserted: { src: string; async: boolean }[] = [];
    const listeners: Record<string, () => void> = {};
    const document = {
      readyState: "loading",
      createElement: () => ({ src: "", async: false }),
      getElementsByTagName: () => [{ parentNode: { insertBefore: (el: { src: string; async: boolean }) => inserted.push(el) } }],
    };
    const w: Record<string, unknown> = { document, addEventListener: (type: string, fn: () => void) => (listeners[type] = fn) };
    w.window = w;
    // Sloppy-mode `with`, so the snippet's globals (window, document, fbq) are the fake window's.
    new Function("w", `with (w) { ${script} }`)(w);
    return { w, inserted, load: () => listeners.load?.() };
  }

  it("queues init and PageView at once, and asks for the vendor's script only after the page's load event", () => {
    const { w, inserted, load } = runInLoadingPage(pixelInlineScript("987654321")!);
    expect((w.fbq as { queue: unknown[] }).queue.map((args) => [...(args as unknown[])])).toEqual([
      ["init", "987654321"],
      ["track", "PageView"],
    ]);
    expect(inserted).toHaveLength(0);
    load();
    expect(inserted).toEqual([{ src: PIXEL_SCRIPT_SRC, async: true }]);
  });
});

describe("<AdPixel>", () => {
  it("renders nothing at all for a value that is not all digits", async () => {
    for (const value of NOT_DIGITS) {
      const { html } = await renderInRouter(<AdPixel pixelId={value} />);
      expect(html).toBe("");
    }
  });

  it("renders the script and the no-JavaScript image for a valid id", async () => {
    const { html } = await renderInRouter(<AdPixel pixelId="123456" />);
    expect(html).toContain("<script>!function(f,b,e,v,n,t,s)");
    expect(html).toContain("fbq('init','123456')");
    expect(html).toContain("<noscript>");
    expect(html).toContain("https://www.facebook.com/tr?id=123456&amp;ev=PageView&amp;noscript=1");
  });
});

describe("loadPixel (client navigations)", () => {
  function fakeWindow() {
    const appended: { src: string; async: boolean }[] = [];
    const document = {
      createElement: () => ({ src: "", async: false }),
      head: { appendChild: (el: { src: string; async: boolean }) => appended.push(el) },
    };
    return { w: { document } as unknown as Window, appended };
  }

  it("loads the vendor script once and inits each id once", () => {
    const { w, appended } = fakeWindow();
    expect(loadPixel("111", w)).toBe(true);
    expect(loadPixel("111", w)).toBe(false);
    expect(loadPixel("222", w)).toBe(true);
    expect(appended).toHaveLength(1);
    expect(appended[0]).toMatchObject({ src: PIXEL_SCRIPT_SRC, async: true });
    const queue = (w as unknown as { fbq: { queue: unknown[][] } }).fbq.queue;
    expect(queue).toEqual([
      ["init", "111"],
      ["track", "PageView"],
      ["init", "222"],
      ["track", "PageView"],
    ]);
  });

  it("does nothing for a value that is not all digits", () => {
    const { w, appended } = fakeWindow();
    expect(loadPixel("12a", w)).toBe(false);
    expect(appended).toHaveLength(0);
    expect((w as unknown as { fbq?: unknown }).fbq).toBeUndefined();
  });
});
