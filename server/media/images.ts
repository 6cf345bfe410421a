import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { Ctx } from "#server/context";
import { env } from "#server/env";
import { Invalid, Unauthenticated } from "#server/errors";

/**
 * Uploaded images (event images, organization logos). The type is decided by
 * the file's first bytes, never by its name or the browser's content-type;
 * files are stored under `${DATA_DIR}/uploads` with a random name and served
 * by `/imagenes/{file}`.
 */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

export const IMAGE_MESSAGES = {
  type: "La imagen tiene que ser JPG, PNG o WebP",
  size: "La imagen no puede pesar más de 2 MB",
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

/** Stored names: 32 hex characters and one of our three extensions. Nothing else is ever read from disk. */
const STORED_NAME = /^[a-f0-9]{32}\.(jpg|png|webp)$/;

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

/** Saves an image a signed-in user uploaded. Only members creating or editing something get here. */
export async function saveImage(ctx: Ctx, bytes: Uint8Array, field = "image"): Promise<StoredImage> {
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  const contentType = checkImage(bytes, field);
  const file = `${crypto.randomBytes(16).toString("hex")}.${IMAGE_TYPES[contentType]}`;
  const dir = uploadsDir();
  await fs.mkdir(dir, { recursive: true });
  // "wx": never overwrite (a random-name collision would be a bug, not a reason to lose a file).
  await fs.writeFile(path.join(dir, file), bytes, { flag: "wx", mode: 0o644 });
  return { url: `${IMAGE_URL_PREFIX}${file}`, file, contentType, size: bytes.length };
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
