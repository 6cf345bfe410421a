import { describe, expect, it } from "vitest";
import { responsiveImage, variantWidths } from "./images";

const ID = "0123456789abcdef0123456789abcdef";

describe("responsiveImage", () => {
  it("builds the srcset from the widest copy's URL", () => {
    expect(responsiveImage(`/imagenes/${ID}-1200.webp`)).toEqual({
      src: `/imagenes/${ID}-1200.webp`,
      srcSet: `/imagenes/${ID}-400.webp 400w, /imagenes/${ID}-800.webp 800w, /imagenes/${ID}-1200.webp 1200w`,
    });
    expect(responsiveImage(`/imagenes/${ID}-1000.webp`).srcSet).toBe(`/imagenes/${ID}-400.webp 400w, /imagenes/${ID}-800.webp 800w, /imagenes/${ID}-1000.webp 1000w`);
    expect(responsiveImage(`/imagenes/${ID}-320.webp`).srcSet).toBe(`/imagenes/${ID}-320.webp 320w`);
  });

  it("older uploads and anything else: the URL alone", () => {
    expect(responsiveImage(`/imagenes/${ID}.jpg`)).toEqual({ src: `/imagenes/${ID}.jpg`, srcSet: null });
    expect(responsiveImage("https://otro.sitio/a-1200.webp")).toEqual({ src: "https://otro.sitio/a-1200.webp", srcSet: null });
  });

  it("widths: the standard ones below the widest, then the widest", () => {
    expect(variantWidths(1200)).toEqual([400, 800, 1200]);
    expect(variantWidths(800)).toEqual([400, 800]);
    expect(variantWidths(640)).toEqual([400, 640]);
  });
});
