import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { MAX_RECEIPT_BYTES } from "#server/bank-transfers/receipts";

/**
 * Reads the receipt form (multipart): the file part kept up to one byte more
 * than the limit (so the size check still fails on a bigger one) without
 * holding a huge upload in memory; text parts cut at 2 000 characters.
 */
async function collect(data: AsyncIterable<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of data) {
    if (size >= limit) continue; // keep reading to the end of the part; keep nothing more
    const kept = chunk.length > limit - size ? chunk.subarray(0, limit - size) : chunk;
    chunks.push(kept);
    size += kept.length;
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

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
      const bytes = await collect(part.data, MAX_RECEIPT_BYTES + 1);
      if (bytes.length && part.name === "receipt" && !file) file = { bytes, name: part.filename };
      return null;
    }
    values[part.name] = new TextDecoder().decode(await collect(part.data, 2_000));
    return null;
  };
  await unstable_parseMultipartFormData(request, handler);
  return { values, file };
}
