import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp, { type Region } from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { responsiveImage } from "#common/images";
import { detectImageType, isStoredImageUrl, uploadsDir } from "./images";
import { POSTER_HEIGHT, POSTER_WIDTH, posterDateLine, posterSvg, savePoster } from "./posters";

// Set before anything reads the environment (env() is read lazily): posters go to a throwaway folder, never .data.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tribuna-posters-"));
process.env.DATA_DIR = dataDir;
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// Sábado 20 de diciembre de 2036, 21:00 en Buenos Aires (UTC−3).
const SATURDAY = new Date("2036-12-20T21:00:00-03:00");
const days = (d: number) => new Date(SATURDAY.getTime() + d * 86_400_000);

const TANGO = { slug: "tango-en-el-conventillo", name: "Tango en el Conventillo", category: "teatro", dates: [SATURDAY], venueName: "Centro Cultural San Telmo", city: "Buenos Aires" };

describe("posterSvg", () => {
  it("draws every text as paths (no installed fonts needed) in a 16:9 SVG", async () => {
    const svg = await posterSvg(TANGO);
    expect(svg).toContain(`viewBox="0 0 ${POSTER_WIDTH} ${POSTER_HEIGHT}"`);
    expect(POSTER_WIDTH / POSTER_HEIGHT).toBeCloseTo(16 / 9);
    expect(svg).not.toMatch(/<text|font-family|NaN|undefined/);
    expect(svg.match(/<path d="M/g)!.length).toBeGreaterThan(5);
  });

  it("looks different per category, and the same event always gets the same poster", async () => {
    const categories = ["recitales", "fiestas", "teatro", "stand-up", "festivales", "deportes", "gastronomia", "conferencias", "infantiles", "otros"];
    const svgs = await Promise.all(categories.map((category) => posterSvg({ ...TANGO, category })));
    const backgrounds = new Set(svgs.map((svg) => /<linearGradient id="bg"[^]*?<\/linearGradient>/.exec(svg)![0]));
    expect(backgrounds.size).toBe(categories.length);
    expect(await posterSvg(TANGO)).toBe(await posterSvg(TANGO));
    expect(await posterSvg({ ...TANGO, category: "recitales", slug: "otro" })).not.toBe(await posterSvg({ ...TANGO, category: "recitales" }));
  });

  it("does not write the category (the event page shows it once): above the title there is only the background", async () => {
    // The top-left corner, where the category's pill used to be: with nothing drawn there, only the background's smooth
    // gradient (its pixels spread under 12; with the pill, about 54). stats() reads its input, not the pipeline, so the
    // band goes through a buffer first.
    const spread = async (svg: string, band: Region) => {
      const { channels } = await sharp(await sharp(Buffer.from(svg)).extract(band).removeAlpha().toBuffer()).stats();
      return Math.max(...channels.map((c) => c.stdev));
    };
    const categories = ["recitales", "fiestas", "teatro", "stand-up", "festivales", "deportes", "gastronomia", "conferencias", "infantiles", "otros"];
    for (const category of categories) expect(await spread(await posterSvg({ ...TANGO, category }), { left: 48, top: 48, width: 260, height: 60 }), category).toBeLessThan(12);
    // The check sees text: the title's band is anything but smooth.
    expect(await spread(await posterSvg(TANGO), { left: 40, top: 240, width: 480, height: 200 })).toBeGreaterThan(30);
  });

  it("fits long names by making the title smaller", async () => {
    const long = await posterSvg({ ...TANGO, name: "Encuentro Nacional de Orquestas Típicas y Milongas del Interior" });
    expect(long).not.toMatch(/NaN/);
  });
});

describe("posterDateLine", () => {
  it("says the day in Spanish, in Buenos Aires time", () => {
    expect(posterDateLine([SATURDAY])).toBe("SÁBADO 20 DE DICIEMBRE · 21 H");
    expect(posterDateLine([new Date("2036-12-20T21:30:00-03:00")])).toBe("SÁBADO 20 DE DICIEMBRE · 21:30 H");
  });

  it("several dates of a month in one line; more, or across months, from the first", () => {
    expect(posterDateLine([days(7), SATURDAY])).toBe("20 Y 27 DE DICIEMBRE · 21 H");
    expect(posterDateLine([new Date("2036-12-01T21:00:00-03:00"), new Date("2036-12-08T21:00:00-03:00"), SATURDAY])).toBe("1, 8 Y 20 DE DICIEMBRE · 21 H");
    expect(posterDateLine([SATURDAY, days(14)])).toBe("2 FECHAS DESDE EL 20 DE DICIEMBRE");
  });
});

describe("savePoster", () => {
  it("stores the poster like an upload: valid WebP at 400, 800 and 1200 px, the URL's srcset naming each", async () => {
    const image = await savePoster(TANGO);
    expect(isStoredImageUrl(image.url)).toBe(true);
    const { srcSet } = responsiveImage(image.url);
    const files = srcSet!.split(", ").map((candidate) => candidate.split(" ")[0].replace("/imagenes/", ""));
    expect(files).toHaveLength(3);
    for (const [i, width] of [400, 800, 1200].entries()) {
      const bytes = fs.readFileSync(path.join(uploadsDir(), files[i]));
      expect(detectImageType(bytes)).toBe("image/webp");
      expect(await sharp(bytes).metadata()).toMatchObject({ format: "webp", width, height: Math.round((width * 9) / 16) });
    }
  });
});
