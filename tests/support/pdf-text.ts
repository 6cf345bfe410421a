import zlib from "node:zlib";
import { PDFDocument, PDFName, PDFRawStream } from "pdf-lib";

/** The text a PDF's pages draw: pdf-lib writes each string as hex in WinAnsi, inside deflated content streams. */
export async function drawnText(bytes: Uint8Array): Promise<string> {
  const pdf = await PDFDocument.load(bytes);
  const out: string[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    // Content streams only: images (Subtype /Image) are deflated too.
    if (!(object instanceof PDFRawStream) || object.dict.get(PDFName.of("Subtype"))) continue;
    let content: string;
    try {
      content = zlib.inflateSync(Buffer.from(object.contents)).toString("latin1");
    } catch {
      continue;
    }
    for (const [, hex] of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)) out.push(Buffer.from(hex, "hex").toString("latin1"));
  }
  return out.join("\n");
}
