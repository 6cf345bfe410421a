import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { fakeImage, realImage } from "#tests/support/images";
import { getRequest, run } from "#tests/support/remix";
import { isDomainError } from "#server/errors";
import * as imageRoute from "./imagenes.$file";
import { checkImage, detectImageType, IMAGE_MESSAGES, isStoredImageUrl, MAX_IMAGE_BYTES, readImage, saveImage, uploadsDir } from "#server/media/images";

// Set before anything reads the environment (env() is read lazily): uploads go to a throwaway folder, never .data.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tribuna-media-"));
process.env.DATA_DIR = dataDir;

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const WEBP = Uint8Array.from([...Buffer.from("RIFF"), 0x24, 0, 0, 0, ...Buffer.from("WEBPVP8 ")]);
const GIF = Uint8Array.from(Buffer.from("GIF89a\x01\x00\x01\x00"));
const SVG = Uint8Array.from(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));

function errorOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (isDomainError(error)) return error.fieldErrors;
    throw error;
  }
  return null;
}

describe("detectImageType", () => {
  it("knows JPEG, PNG and WebP by their first bytes", () => {
    expect(detectImageType(JPEG)).toBe("image/jpeg");
    expect(detectImageType(PNG)).toBe("image/png");
    expect(detectImageType(WEBP)).toBe("image/webp");
  });

  it("refuses anything else, whatever it is called", () => {
    expect(detectImageType(GIF)).toBeNull();
    expect(detectImageType(SVG)).toBeNull();
    expect(detectImageType(Buffer.from("%PDF-1.7"))).toBeNull();
    expect(detectImageType(new Uint8Array())).toBeNull();
    // A RIFF that is not WebP (a WAV file).
    expect(detectImageType(Uint8Array.from([...Buffer.from("RIFF"), 0, 0, 0, 0, ...Buffer.from("WAVE")]))).toBeNull();
  });
});

describe("checkImage", () => {
  it("says in Spanish, on the field, when the type is wrong", () => {
    expect(errorOf(() => checkImage(GIF, "logo"))).toEqual({ logo: ["La imagen tiene que ser JPG, PNG o WebP"] });
    expect(errorOf(() => checkImage(SVG))).toEqual({ image: [IMAGE_MESSAGES.type] });
  });

  it("accepts exactly 2 MB and refuses one byte more", () => {
    const max = new Uint8Array(MAX_IMAGE_BYTES);
    max.set(PNG);
    expect(checkImage(max)).toBe("image/png");
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(PNG);
    expect(errorOf(() => checkImage(big))).toEqual({ image: ["La imagen no puede pesar más de 2 MB"] });
  });
});

describe("saveImage and /imagenes/{file}", () => {
  it("stores under DATA_DIR/uploads with a random name and serves it with its type and a long cache", async () => {
    const user = await createTestUser();
    const ctx = await ctxAs(actorFor(user));
    const webp = await realImage("webp");
    const a = await saveImage(ctx, webp);
    const b = await saveImage(ctx, webp);
    expect(a.url).toMatch(/^\/imagenes\/[a-f0-9]{32}-64\.webp$/);
    expect(a.file).not.toBe(b.file);
    expect(uploadsDir()).toBe(path.join(dataDir, "uploads"));
    // The original, as it came, next to its copy.
    expect(fs.readFileSync(path.join(dataDir, "uploads", `${a.file.slice(0, 32)}.webp`))).toEqual(Buffer.from(webp));
    expect(isStoredImageUrl(a.url)).toBe(true);

    const res = await run(imageRoute.loader, getRequest(a.url), { file: a.file });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("refuses anonymous uploads and bad files, writing nothing", async () => {
    const before = fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).length : 0;
    await expect(saveImage(await ctxAs(), PNG)).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    const ctx = await ctxAs(actorFor(await createTestUser()));
    await expect(saveImage(ctx, GIF, "logo")).rejects.toMatchObject({ fieldErrors: { logo: [IMAGE_MESSAGES.type] } });
    const after = fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).length : 0;
    expect(after).toBe(before);
  });

  it("never reads outside the uploads folder", async () => {
    // A file next to uploads/ that a traversal would reach.
    fs.mkdirSync(uploadsDir(), { recursive: true });
    fs.writeFileSync(path.join(dataDir, "auth-secret"), "secreto");
    for (const file of ["../auth-secret", "..%2Fauth-secret", "..\\auth-secret", "/etc/passwd", "auth-secret", `${"a".repeat(32)}.svg`, `${"A".repeat(32)}.png`, ""]) {
      expect(await readImage(file)).toBeNull();
      const res = await run(imageRoute.loader, getRequest("/imagenes/x"), { file });
      expect(res.status).toBe(404);
    }
    expect(await readImage(`${"b".repeat(32)}.png`)).toBeNull();
    for (const file of [`${"c".repeat(32)}-400.png`, `${"c".repeat(32)}-.webp`, `${"c".repeat(32)}-12345.webp`, `${"c".repeat(32)}-400.webp.png`]) expect(await readImage(file)).toBeNull();
    expect(isStoredImageUrl("/imagenes/../auth-secret")).toBe(false);
    expect(isStoredImageUrl("https://otro.sitio/x.png")).toBe(false);
  });
});

describe("width copies of uploads (decision 112)", () => {
  const photo = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: { r: 20, g: 184, b: 166 } } })
      .png()
      .toBuffer();

  it("keeps the original and stores WebP at 400, 800 and 1200 px; the URL is the widest, and each copy is served with a long cache", async () => {
    const ctx = await ctxAs(actorFor(await createTestUser()));
    const image = await saveImage(ctx, await photo(2400, 1350));
    const id = image.file.slice(0, 32);
    expect(image).toMatchObject({ url: `/imagenes/${id}-1200.webp`, file: `${id}-1200.webp`, contentType: "image/webp" });
    expect(isStoredImageUrl(image.url)).toBe(true);
    expect(fs.existsSync(path.join(uploadsDir(), `${id}.png`))).toBe(true);
    for (const width of [400, 800, 1200]) {
      const bytes = fs.readFileSync(path.join(uploadsDir(), `${id}-${width}.webp`));
      expect(detectImageType(bytes)).toBe("image/webp");
      expect(await sharp(bytes).metadata()).toMatchObject({ format: "webp", width, height: Math.round((width * 1350) / 2400) });
      const res = await run(imageRoute.loader, getRequest(`/imagenes/${id}-${width}.webp`), { file: `${id}-${width}.webp` });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/webp");
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
    expect(image.size).toBe(fs.statSync(path.join(uploadsDir(), image.file)).size);
  });

  it("never enlarges: a 1000 px image gets 400, 800 and 1000; one narrower than 400 only its own width", async () => {
    const ctx = await ctxAs(actorFor(await createTestUser()));
    const medium = await saveImage(ctx, await photo(1000, 500));
    const id = medium.file.slice(0, 32);
    expect(medium.url).toBe(`/imagenes/${id}-1000.webp`);
    expect(fs.readdirSync(uploadsDir()).filter((f) => f.startsWith(id)).sort()).toEqual([`${id}-1000.webp`, `${id}-400.webp`, `${id}-800.webp`, `${id}.png`]);
    const small = await saveImage(ctx, await photo(300, 300));
    expect(small.url).toMatch(/^\/imagenes\/[a-f0-9]{32}-300\.webp$/);
    expect(fs.readdirSync(uploadsDir()).filter((f) => f.startsWith(small.file.slice(0, 32)))).toHaveLength(2);
  });

  it("refuses a file that starts like an image but does not decode (random bytes, a cut file) on its field, writing nothing", async () => {
    const ctx = await ctxAs(actorFor(await createTestUser()));
    fs.mkdirSync(uploadsDir(), { recursive: true });
    const before = fs.readdirSync(uploadsDir()).length;
    const cut = (await realImage("jpeg", 800, 600)).subarray(0, 300);
    for (const bytes of [fakeImage("png"), fakeImage("jpeg"), fakeImage("webp"), PNG, JPEG, WEBP, cut]) {
      expect(checkImage(bytes)).toMatch(/^image\//);
      await expect(saveImage(ctx, bytes, "logo")).rejects.toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { logo: ["No pudimos leer la imagen. Subí un JPG, PNG o WebP."] } });
    }
    expect(fs.readdirSync(uploadsDir()).length).toBe(before);
  });

  it("refuses an image that claims too many pixels before decoding it", async () => {
    const ctx = await ctxAs(actorFor(await createTestUser()));
    // A real 1 × 1 PNG whose header says 10,000 × 10,000 (100 megapixels, in 70 bytes).
    const png = Buffer.from(await realImage("png", 1, 1));
    png.writeUInt32BE(10_000, 16);
    png.writeUInt32BE(10_000, 20);
    png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
    await expect(saveImage(ctx, png)).rejects.toMatchObject({ fieldErrors: { image: [IMAGE_MESSAGES.pixels] } });
  });
});
