import type { LoaderFunctionArgs } from "@remix-run/node";
import { assertDevMailbox, getLoggedAttachment } from "#app/lib/dev-mailbox.server";

/** Downloads one attachment of a logged email (dev mailbox only). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  assertDevMailbox(request);
  const file = await getLoggedAttachment(params.id ?? "", params.attachmentId ?? "");
  if (!file) throw new Response("Not Found", { status: 404 });
  return new Response(Buffer.from(file.contentBase64, "base64"), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `${file.contentType.startsWith("image/") ? "inline" : "attachment"}; filename="${file.filename.replace(/["\\\r\n]/g, "")}"`,
      "Cache-Control": "no-store",
    },
  });
}
