import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { collectPart } from "./multipart.server";
import { MAX_RECEIPT_BYTES } from "#server/bank-transfers/receipts";

/**
 * Reads the receipt form (multipart): the file part kept up to one byte more
 * than the limit (so the size check still fails on a bigger one) without
 * holding a huge upload in memory; text parts cut at 2 000 characters.
 */
export async function readReceiptForm(request: Request): Promise<{ values: Record<string, string>; file: { bytes: Uint8Array; name: string } | null }> {
  const values: Record<string, string> = {};
  let file: { bytes: Uint8Array; name: string } | null = null;
  if (!(request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) {
    const form = await request.formData();
    for (const [name, value] of form.entries()) if (typeof value === "string") values[name] = value;
    return { values, file };
  }
  const handler: UploadHandler = async (part) => {
    if (typeof part.filename === "string") {
      const bytes = await collectPart(part.data, MAX_RECEIPT_BYTES + 1);
      if (bytes.length && part.name === "receipt" && !file) file = { bytes, name: part.filename };
      return null;
    }
    values[part.name] = new TextDecoder().decode(await collectPart(part.data, 2_000));
    return null;
  };
  await unstable_parseMultipartFormData(request, handler);
  return { values, file };
}
