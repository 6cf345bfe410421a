import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { MAX_IMAGE_WIDTH, variantWidths } from "#common/images";
import type { Ctx } from "#server/context";
import { env } from "#server/env";
import { Invalid, Unauthenticated } from "#server/errors";

/**
 * Uploaded images (event images, organization logos, menu photos). The type is
 * decided by the file's first bytes, never by its name or the browser's
 * content-type, and the whole file must decode (sharp) before anything is
 * written: a file that only starts like an image is refused. Files are stored under `${DATA_DIR}/uploads` with a random name and served
 * by `/imagenes/{file}`. Next to the original, every image sharp can read gets
 * WebP copies at the widths of common/images.ts (`{id}-400.webp`…), and its
 * URL is the widest copy's, so pages serve it with `srcset` (decision 112).
 */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

export const IMAGE_MESSAGES = {
  type: "La imagen tiene que ser JPG, PNG o WebP",
  size: "La imagen no puede pesar más de 2 MB",
  unreadable: "No pudimos leer la imagen. Subí un JPG, PNG o WebP.",
  pixels: "La imagen tiene demasiados píxeles: subí una de hasta 50 megapíxeles (por ejemplo, 8000 × 6000).",
  notStored: "Subí la imagen a Tribuna primero (desde el formulario o con uploadImage): no usamos imágenes de otros sitios",
} as const;

export const IMAGE_TYPES = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
} as const;
export type ImageType = keyof typeof IMAGE_TYPES;

const CONTENT_TYPES: Record<string, ImageType> = { jpg: "image/jpeg", png: "image/png", webp: "image/webp" };

/** Public URL prefix of stored images. */
export const IMAGE_URL_PREFIX = "/imagenes/";

/** Stored names: 32 hex characters, a width for the WebP copies, and one of our three extensions. Nothing else is ever read from disk. */
const STORED_NAME = /^[a-f0-9]{32}(?:\.(?:jpg|png|webp)|-\d{2,4}\.webp)$/;

/** WebP quality of the width copies: photos and posters look the same as the original at a fraction of the weight. */
const WEBP_QUALITY = 80;
/** libwebp's effort 2 of 6: three times faster than the default 4 for files about 3 % bigger (the demo seed draws 36). */
const WEBP_EFFORT = 2;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, signature: number[], offset = 0) {
  return bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** JPEG, PNG or WebP by magic bytes; null for anything else. */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, PNG_SIGNATURE)) return "image/png";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return null;
}

/**
 * Checks an upload: size first (a huge file is refused whatever it is), then
 * the type. Throws Invalid with the message on `field`.
 */
export function checkImage(bytes: Uint8Array, field = "image"): ImageType {
  if (bytes.length > MAX_IMAGE_BYTES) throw new Invalid({ [field]: [IMAGE_MESSAGES.size] });
  const type = detectImageType(bytes);
  if (!type) throw new Invalid({ [field]: [IMAGE_MESSAGES.type] });
  return type;
}

export function uploadsDir(): string {
  return path.resolve(env().DATA_DIR, "uploads");
}

export interface StoredImage {
  /** What pages and the database keep: `/imagenes/{file}`. */
  url: string;
  file: string;
  contentType: ImageType;
  size: number;
}

const newImageId = () => crypto.randomBytes(16).toString("hex");

async function writeUpload(file: string, bytes: Uint8Array) {
  const dir = uploadsDir();
  await fs.mkdir(dir, { recursive: true });
  // "wx": never overwrite (a random-name collision would be a bug, not a reason to lose a file).
  await fs.writeFile(path.join(dir, file), bytes, { flag: "wx", mode: 0o644 });
}

/**
 * Saves an image a signed-in user uploaded. Only members creating or editing something get here.
 * The file is decoded first (Invalid on `field` when it cannot be: nothing is written); then the original is kept
 * as it came and the answer is its WebP width copies.
 */
export async function saveImage(ctx: Ctx, bytes: Uint8Array, field = "image"): Promise<StoredImage> {
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  const contentType = checkImage(bytes, field);
  // Loaded before decoding, so a broken install is an error and not an "unreadable image" for the user.
  await loadSharp();
  const pixels = await decode(bytes).catch((error: unknown) => {
    throw new Invalid({ [field]: [/pixel limit/i.test(String((error as Error)?.message)) ? IMAGE_MESSAGES.pixels : IMAGE_MESSAGES.unreadable] });
  });
  const id = newImageId();
  const stored = await writeWidthVariants(pixels, id);
  await writeUpload(`${id}.${IMAGE_TYPES[contentType]}`, bytes);
  return stored;
}

/** sharp (libvips, native) loads on first use, so the server's idle memory does not carry it (decision 242). */
export const loadSharp = async () => (await import("sharp")).default;

/** Images over this many pixels are refused before sharp decodes them (a small file can claim a huge size). */
export const MAX_INPUT_PIXELS = 50_000_000;

/**
 * The image's pixels, decoded (or, for an SVG, drawn) once, upright by its EXIF orientation and at most
 * MAX_IMAGE_WIDTH wide. Throws when sharp cannot read the whole input (`failOn: "error"`: a corrupt or cut file).
 */
async function decode(input: Uint8Array | Buffer) {
  const sharp = await loadSharp();
  return sharp(input, { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize({ width: MAX_IMAGE_WIDTH, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
}

/**
 * Stores `{id}-{width}.webp` for each width of common/images.ts narrower than the image (and one at its own width,
 * up to MAX_IMAGE_WIDTH), turned upright by its EXIF orientation, and answers the widest. Used for uploads and for the
 * demo's posters (an SVG). Throws when sharp cannot read the input.
 */
export async function saveWidthVariants(input: Uint8Array | Buffer, id = newImageId()): Promise<StoredImage> {
  return writeWidthVariants(await decode(input), id);
}

async function writeWidthVariants({ data, info }: Awaited<ReturnType<typeof decode>>, id: string): Promise<StoredImage> {
  // Every width is scaled from the decoded pixels.
  const pixels = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const sharp = await loadSharp();
  const files = await Promise.all(
    variantWidths(info.width).map(async (width) => {
      const bytes = await sharp(data, pixels).resize({ width }).webp({ quality: WEBP_QUALITY, effort: WEBP_EFFORT }).toBuffer();
      const file = `${id}-${width}.webp`;
      await writeUpload(file, bytes);
      return { file, size: bytes.length };
    }),
  );
  const main = files[files.length - 1];
  return { url: `${IMAGE_URL_PREFIX}${main.file}`, file: main.file, contentType: "image/webp", size: main.size };
}

/** True for a URL this module produced (the only image URLs forms may send back). */
export function isStoredImageUrl(url: string): boolean {
  return url.startsWith(IMAGE_URL_PREFIX) && STORED_NAME.test(url.slice(IMAGE_URL_PREFIX.length));
}

/** An event's image or an organization's logo: only a URL of one of our uploads, whichever door it came through. */
export const storedImageUrlSchema = z.string().trim().max(500).refine(isStoredImageUrl, IMAGE_MESSAGES.notStored);

/**
 * A stored image by its file name, or null. The name must look exactly like
 * one we made, so `..`, slashes, encoded separators and other files of the
 * data folder never reach the file system.
 */
export async function readImage(file: string): Promise<{ bytes: Buffer; contentType: ImageType } | null> {
  if (!STORED_NAME.test(file)) return null;
  const full = path.join(uploadsDir(), file);
  if (path.dirname(full) !== uploadsDir()) return null;
  try {
    const bytes = await fs.readFile(full);
    return { bytes, contentType: CONTENT_TYPES[file.split(".")[1]] };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
