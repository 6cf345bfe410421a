import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { bankTransferReceipts } from "#server/db/schema";
import { createOrder } from "#server/orders/orders";
import { billingAccessToken } from "#server/auth/billing-access";
import { ctxAs } from "#tests/support/context";
import { createEventWithTickets, createTransferAccount } from "#tests/support/factories";
import { fakeImage, realImage, realPdf } from "#tests/support/images";
import { errorCode, gql, postRaw, type GqlOptions } from "#tests/support/graphql";

// Uploads go to a throwaway folder, never .data (env() is read lazily).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tribuna-contract-uploads-"));
process.env.DATA_DIR = dataDir;
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const WEBP = Buffer.from([...Buffer.from("RIFF"), 0x24, 0, 0, 0, ...Buffer.from("WEBPVP8 ")]);
const GIF = Buffer.from("GIF89a\x01\x00\x01\x00");
const PDF = Buffer.from(await realPdf());

/**
 * A request as the GraphQL multipart request spec says: `operations` (query
 * and variables with the file as null), `map` (which part fills which
 * variable), then the file part.
 */
function multipart(query: string, variables: Record<string, unknown>, filePath: string, file: { bytes: Buffer; name: string; type: string }) {
  const form = new FormData();
  form.set("operations", JSON.stringify({ query, variables }));
  form.set("map", JSON.stringify({ "0": [filePath] }));
  form.set("0", new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
  return form;
}

const UPLOAD_IMAGE = /* GraphQL */ `mutation($file: File!) { uploadImage(file: $file) { url contentType size } }`;
const UPLOAD_RECEIPT = /* GraphQL */ `
  mutation($input: UploadBankTransferReceiptInput!) { uploadBankTransferReceipt(input: $input) { id contentType fileName size url } }
`;

async function producerWithEvent() {
  const made = await createEventWithTickets();
  const tokens = await startSession(await getDb(), { ...made.user, roles: ["producer"] }, new Date());
  return { ...made, tokens };
}

describe("uploadImage (multipart)", () => {
  it("stores a real image and its URL is what createEvent and updateEvent accept; other sites' URLs are refused", async () => {
    const { tokens, event, organization } = await producerWithEvent();
    const options: GqlOptions = { tokens };
    const jpeg = Buffer.from(await realImage("jpeg", 1600, 900));
    const uploaded = await postRaw<{ uploadImage: { url: string; contentType: string; size: number } }>(
      multipart(UPLOAD_IMAGE, { file: null }, "variables.file", { bytes: jpeg, name: "flyer.jpg", type: "image/jpeg" }),
      options,
    );
    expect(uploaded.body.errors).toBeUndefined();
    const image = uploaded.body.data!.uploadImage;
    // The answer is the widest WebP copy; the original is kept next to it as it came.
    expect(image).toEqual({ url: expect.stringMatching(/^\/imagenes\/[a-f0-9]{32}-1200\.webp$/), contentType: "image/webp", size: expect.any(Number) });
    const id = image.url.split("/").pop()!.slice(0, 32);
    expect(fs.statSync(path.join(dataDir, "uploads", `${id}-1200.webp`)).size).toBe(image.size);
    expect(fs.readFileSync(path.join(dataDir, "uploads", `${id}.jpg`))).toEqual(jpeg);

    const updated = await gql<{ updateEvent: { imageUrl: string } }>(`mutation($input: UpdateEventInput!) { updateEvent(input: $input) { imageUrl } }`, {
      tokens,
      variables: { input: { id: event.id, imageUrl: image.url } },
    });
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data!.updateEvent.imageUrl).toBe(image.url);

    const foreign = await gql(`mutation($input: UpdateEventInput!) { updateEvent(input: $input) { imageUrl } }`, {
      tokens,
      variables: { input: { id: event.id, imageUrl: "https://otro.sitio/flyer.png" } },
    });
    expect(errorCode(foreign)).toBe("BAD_USER_INPUT");
    expect(foreign.body.errors![0].extensions!.fieldErrors!.imageUrl[0]).toMatch(/Subí la imagen a Tribuna primero/);
    expect(organization.id).toBeTruthy();
  });

  it("refuses what is not an image by its bytes (or only starts like one), a file over 2 MB, and anonymous uploads, storing nothing", async () => {
    const { tokens } = await producerWithEvent();
    const before = fs.existsSync(path.join(dataDir, "uploads")) ? fs.readdirSync(path.join(dataDir, "uploads")).length : 0;
    const gif = await postRaw(multipart(UPLOAD_IMAGE, { file: null }, "variables.file", { bytes: GIF, name: "flyer.png", type: "image/png" }), { tokens });
    expect(errorCode(gif)).toBe("BAD_USER_INPUT");
    expect(gif.body.errors![0].extensions!.fieldErrors).toEqual({ file: ["La imagen tiene que ser JPG, PNG o WebP"] });

    // Starts like a PNG (and says it is one), then random bytes: nothing decodes it.
    const fake = await postRaw(multipart(UPLOAD_IMAGE, { file: null }, "variables.file", { bytes: Buffer.from(fakeImage("png")), name: "flyer.png", type: "image/png" }), { tokens });
    expect(errorCode(fake)).toBe("BAD_USER_INPUT");
    expect(fake.body.errors![0].extensions!.fieldErrors).toEqual({ file: ["No pudimos leer la imagen. Subí un JPG, PNG o WebP."] });

    const big = Buffer.alloc(2 * 1024 * 1024 + 10);
    WEBP.copy(big);
    const tooBig = await postRaw(multipart(UPLOAD_IMAGE, { file: null }, "variables.file", { bytes: big, name: "enorme.webp", type: "image/webp" }), { tokens });
    expect(tooBig.body.errors![0].extensions!.fieldErrors).toEqual({ file: ["La imagen no puede pesar más de 2 MB"] });

    const anonymous = await postRaw(multipart(UPLOAD_IMAGE, { file: null }, "variables.file", { bytes: WEBP, name: "flyer.webp", type: "image/webp" }), {
      headers: { "x-graphql-csrf": "1" },
    });
    expect(errorCode(anonymous)).toBe("UNAUTHENTICATED");
    const after = fs.existsSync(path.join(dataDir, "uploads")) ? fs.readdirSync(path.join(dataDir, "uploads")).length : 0;
    expect(after).toBe(before);
  });

  it("needs a preflight header like any non-JSON post (a form on another site cannot upload with the visitor's cookies)", async () => {
    const { tokens } = await producerWithEvent();
    const result = await postRaw(multipart(UPLOAD_IMAGE, { file: null }, "variables.file", { bytes: WEBP, name: "flyer.webp", type: "image/webp" }), {
      cookies: tokens,
    });
    expect(result.status).toBe(400);
    expect(errorCode(result)).toBe("BAD_REQUEST");
  });
});

describe("uploadBankTransferReceipt (multipart)", () => {
  async function pendingTransfer() {
    const made = await createEventWithTickets([{ name: "Transferencia", price: 1_000_000, stock: 5, paymentMethod: "BankAccount" }]);
    await createTransferAccount(made.ctx, made.organization.id);
    const order = await createOrder(await ctxAs(), {
      eventSlug: made.event.slug,
      items: [{ ticketId: made.tickets.Transferencia.id, qty: 1 }],
      payer: { firstName: "Joaquín", lastName: "Muñoz", email: "joaco@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 9 11 5555-1234" },
      paymentMethod: "BANK_TRANSFER",
    });
    return { billingId: order.billing.id, token: billingAccessToken(order.billing.id) };
  }

  it("the buyer without an account uploads the receipt with the purchase's token, as on the bank-transfer page", async () => {
    const { billingId, token } = await pendingTransfer();
    const result = await postRaw<{ uploadBankTransferReceipt: { contentType: string; fileName: string; size: number; url: string } }>(
      multipart(UPLOAD_RECEIPT, { input: { billingId, token, file: null } }, "variables.input.file", { bytes: PDF, name: "transferencia.pdf", type: "application/pdf" }),
      { headers: { "x-graphql-csrf": "1" } },
    );
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data!.uploadBankTransferReceipt).toMatchObject({ contentType: "application/pdf", fileName: "transferencia.pdf", size: PDF.length });
    const rows = await (await getDb()).select().from(bankTransferReceipts).where(eq(bankTransferReceipts.billingId, billingId));
    expect(rows).toHaveLength(1);
  });

  it("refuses a file that only pretends to be a PDF, and a stranger without the token", async () => {
    const { billingId, token } = await pendingTransfer();
    const fake = await postRaw(
      multipart(UPLOAD_RECEIPT, { input: { billingId, token, file: null } }, "variables.input.file", { bytes: Buffer.from("<html>no soy un pdf</html>"), name: "c.pdf", type: "application/pdf" }),
      { headers: { "x-graphql-csrf": "1" } },
    );
    expect(errorCode(fake)).toBe("BAD_USER_INPUT");
    expect(fake.body.errors![0].extensions!.fieldErrors!.receipt[0]).toMatch(/PDF, JPG o PNG/);

    const stranger = await postRaw(
      multipart(UPLOAD_RECEIPT, { input: { billingId, file: null } }, "variables.input.file", { bytes: PDF, name: "c.pdf", type: "application/pdf" }),
      { headers: { "x-graphql-csrf": "1" } },
    );
    expect(["NOT_FOUND", "UNAUTHENTICATED"]).toContain(errorCode(stranger));
    const rows = await (await getDb()).select().from(bankTransferReceipts).where(eq(bankTransferReceipts.billingId, billingId));
    expect(rows).toHaveLength(0);
  });
});
