import { GraphQLError } from "graphql";
import { builder } from "./builder";
import { MAX_IMAGE_BYTES, saveImage } from "#server/media/images";

/**
 * File uploads over GraphQL: the GraphQL multipart request spec (a multipart
 * POST with `operations`, `map` and the files), which graphql-yoga reads
 * natively into WHATWG `File` objects. The same domain functions and checks
 * as the forms run on the bytes.
 */
export const FileScalar = builder.scalarType("File", {
  description:
    "A file sent as a part of a multipart request (GraphQL multipart request spec: `operations`, `map`, then the files). Input only. Needs a preflight header (`x-access-token`, `x-graphql-csrf` or `apollo-require-preflight`).",
  serialize: () => {
    throw new GraphQLError("File es solo un tipo de entrada.");
  },
  parseValue: (value) => {
    if (value && typeof value === "object" && "arrayBuffer" in value && "size" in value) return value as File;
    throw new GraphQLError("Mandá el archivo como parte de un pedido multipart.", { extensions: { code: "BAD_USER_INPUT" } });
  },
  parseLiteral: () => {
    throw new GraphQLError("Mandá el archivo como parte de un pedido multipart.", { extensions: { code: "BAD_USER_INPUT" } });
  },
});

/**
 * The file's bytes, cut one byte past `max`: the domain's size check still
 * refuses a bigger file with its message, and nothing past the limit goes on.
 * (The multipart parser already holds the part, within the request body
 * limit; its File does not implement `slice`.)
 */
export async function fileBytes(file: File, max: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  return bytes.length > max + 1 ? bytes.subarray(0, max + 1) : bytes;
}

const UploadedImage = builder.objectRef<{ url: string; contentType: string; size: number }>("UploadedImage").implement({
  description: "An image stored by Tribuna: pass its `url` as `imageUrl` to createEvent / updateEvent (or `logoUrl` to the organization).",
  fields: (t) => ({
    url: t.exposeString("url", { nullable: false, description: "`/imagenes/{file}`, relative to the site." }),
    contentType: t.exposeString("contentType", { nullable: false, description: "image/jpeg, image/png or image/webp." }),
    size: t.exposeInt("size", { nullable: false, description: "Bytes." }),
  }),
});

builder.mutationField("uploadImage", (t) =>
  t.field({
    type: UploadedImage,
    nullable: false,
    description: "Stores an image (JPG, PNG or WebP, up to 2 MB, checked by its bytes) for an event or an organization. Signed-in users only.",
    args: { file: t.arg({ type: FileScalar, required: true }) },
    resolve: async (_root, args, { ctx }) => saveImage(ctx, await fileBytes(args.file, MAX_IMAGE_BYTES), "file"),
  }),
);
