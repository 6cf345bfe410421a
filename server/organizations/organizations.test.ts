import { describe, expect, it } from "vitest";
import { isValidCuit } from "#common/cuit";
import { getUserById } from "#server/accounts/users";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { createOrganization, getOrganizationBySlug, listMyOrganizations, updateOrganization } from "./organizations";
import { slugify } from "./slugs";

const validInput = {
  name: "Producciones del Río",
  cuit: "30-71234567-1",
  contactEmail: "hola@delrio.com.ar",
};

describe("CUIT check digit", () => {
  it.each(["20-12345678-6", "20123456786", "30-71234567-1", "27 28033514 8"])("accepts %s", (cuit) => {
    expect(isValidCuit(cuit)).toBe(true);
  });
  it.each(["20-12345678-5", "99-12345678-6", "2012345678", "20-1234567a-6", ""])("rejects %s", (cuit) => {
    expect(isValidCuit(cuit)).toBe(false);
  });
});

describe("organizations", () => {
  it("a signed-in user creates one, becomes its owner and a producer, and it is public at its slug", async () => {
    const user = await createTestUser();
    const ctx = await ctxAs(actorFor(user));
    const organization = await createOrganization(ctx, validInput);
    expect(organization.slug).toBe("producciones-del-rio");
    expect(organization.cuit).toBe("30712345671");
    expect((await getUserById(ctx, user.id))?.roles).toContain("producer");
    expect(await listMyOrganizations(ctx)).toEqual([expect.objectContaining({ id: organization.id, role: "owner" })]);
    expect((await getOrganizationBySlug(await ctxAs(), "producciones-del-rio")).id).toBe(organization.id);
  });

  it("refuses a wrong CUIT, a reserved slug and a taken slug with Spanish messages", async () => {
    const ctx = await ctxAs(actorFor(await createTestUser()));
    await expect(createOrganization(ctx, { ...validInput, cuit: "30-71234567-2" })).rejects.toMatchObject({
      fieldErrors: { cuit: [expect.stringContaining("CUIT válido")] },
    });
    await expect(createOrganization(ctx, { ...validInput, slug: "cuenta" })).rejects.toMatchObject({
      fieldErrors: { slug: ["Ese link está reservado, elegí otro"] },
    });
    await createOrganization(ctx, { ...validInput, slug: "la-tribu" });
    await expect(createOrganization(ctx, { ...validInput, slug: "la-tribu" })).rejects.toMatchObject({
      fieldErrors: { slug: ["Ese link ya lo usa otra organización"] },
    });
  });

  it("only its owners and admins may edit it; a producer of another organization may not", async () => {
    const owner = await createTestUser();
    const organization = await createOrganization(await ctxAs(actorFor(owner)), { ...validInput, slug: "propia" });
    const stranger = await createTestUser();
    const strangerCtx = await ctxAs(actorFor(stranger));
    await createOrganization(strangerCtx, { ...validInput, slug: "ajena" });
    const strangerWithRole = await ctxAs(actorFor({ ...stranger, roles: ["producer"] }));
    await expect(
      updateOrganization(strangerWithRole, { ...validInput, id: organization.id, slug: "propia", name: "Robada" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const renamed = await updateOrganization(await ctxAs(actorFor(owner)), { ...validInput, id: organization.id, slug: "propia", name: "Nuevo nombre" });
    expect(renamed.name).toBe("Nuevo nombre");
  });

  it("slugify drops accents and symbols", () => {
    expect(slugify("  Ñoños & Cía. — Córdoba ")).toBe("nonos-cia-cordoba");
  });
});
