import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "#server/db/client";
import { memberships, organizations, users } from "#server/db/schema";
import { actorFor, createTestUser, ctxAs } from "#tests/support/context";
import { currentUser, fetchUserByNickname, findUsers, findUsersByOrganization, updateUser, userByEmail } from "./users";

async function userRow(id: string) {
  const [row] = await (await getDb()).select().from(users).where(eq(users.id, id));
  return row;
}

async function createOrganization(name: string, members: { id: string }[]) {
  const db = await getDb();
  const [org] = await db
    .insert(organizations)
    .values({ name, slug: `${name.toLowerCase().replace(/\W+/g, "-")}-${Math.random().toString(36).slice(2, 7)}` })
    .returning();
  if (members.length) {
    await db.insert(memberships).values(members.map((m, i) => ({ organizationId: org.id, userId: m.id, role: i === 0 ? ("owner" as const) : ("operator" as const) })));
  }
  return org;
}

describe("current", () => {
  it("returns the signed-in person with the spec's fields, organizer and admin flags from the roles", async () => {
    const user = await createTestUser({ roles: ["producer", "admin"], nickname: "sofi", documentType: "dni", documentNumber: "30123456", state: "AR-X" });
    expect(await currentUser(await ctxAs(actorFor(user)))).toEqual({
      id: user.id,
      firstName: "Sofía",
      lastName: "Peña",
      email: user.email,
      nickname: "sofi",
      documentNumber: "30123456",
      documentType: "dni",
      address: null,
      state: "AR-X",
      phoneNumber: null,
      roles: ["producer", "admin"],
      isOrganizer: true,
      isAdmin: true,
    });
    const buyer = await createTestUser();
    expect(await currentUser(await ctxAs(actorFor(buyer)))).toMatchObject({ isOrganizer: false, isAdmin: false });
  });

  it("asks anonymous visitors to sign in", async () => {
    await expect(currentUser(await ctxAs())).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });
});

describe("updateUser", () => {
  it("saves the signed-in person's own profile", async () => {
    const user = await createTestUser();
    const bystander = await createTestUser();
    const updated = await updateUser(await ctxAs(actorFor(user)), {
      firstName: "José María",
      lastName: "Müller",
      email: user.email,
      nickname: "jose.m",
      documentType: "cuit",
      documentNumber: "20-12345678-6",
      address: "Av. Corrientes 1234",
      state: "AR-CF",
      phoneNumber: "+54 9 11 5555-1234",
    });
    expect(updated).toMatchObject({
      id: user.id,
      firstName: "José María",
      lastName: "Müller",
      nickname: "jose.m",
      documentType: "cuit",
      documentNumber: "20123456786",
      address: "Av. Corrientes 1234",
      state: "AR-CF",
      phoneNumber: "+54 9 11 5555-1234",
    });
    expect(await userRow(user.id)).toMatchObject({ firstName: "José María", documentNumber: "20123456786" });
    expect(await userRow(bystander.id)).toMatchObject({ firstName: "Sofía", lastName: "Peña", nickname: null });
  });

  it("keeps the fields left out, and clears optional ones sent empty", async () => {
    const user = await createTestUser({ nickname: "guardado", phoneNumber: "1155551234", documentType: "dni", documentNumber: "30123456" });
    const ctx = await ctxAs(actorFor(user));
    const updated = await updateUser(ctx, { firstName: "Renata" });
    expect(updated).toMatchObject({ firstName: "Renata", lastName: "Peña", email: user.email, nickname: "guardado", phoneNumber: "1155551234", documentNumber: "30123456" });
    const cleared = await updateUser(ctx, { phoneNumber: null, nickname: "" });
    expect(cleared).toMatchObject({ firstName: "Renata", phoneNumber: null, nickname: null, documentNumber: "30123456" });
  });

  it("changes the email (lower case) unless another account has it", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const ctx = await ctxAs(actorFor(user));
    await expect(updateUser(ctx, { email: other.email.toUpperCase() })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { email: ["Ya existe una cuenta con este email"] },
    });
    expect((await userRow(user.id)).email).toBe(user.email);
    await expect(updateUser(ctx, { email: "Nuevo.Correo@Example.com" })).resolves.toMatchObject({ email: "nuevo.correo@example.com" });
  });

  it("keeps nicknames unique whatever their capitalisation", async () => {
    await createTestUser({ nickname: "ElRRPP" });
    const user = await createTestUser({ nickname: "mia" });
    const ctx = await ctxAs(actorFor(user));
    await expect(updateUser(ctx, { nickname: "elrrpp" })).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { nickname: ["Ese apodo ya está en uso"] },
    });
    // Changing the case of one's own nickname is fine.
    await expect(updateUser(ctx, { nickname: "MIA" })).resolves.toMatchObject({ nickname: "MIA" });
  });

  it("gives a nickname to only one of two people saving it at the same moment", async () => {
    const [a, b] = await Promise.all([createTestUser(), createTestUser()]);
    const results = await Promise.allSettled([
      updateUser(await ctxAs(actorFor(a)), { nickname: "el.mismo" }),
      updateUser(await ctxAs(actorFor(b)), { nickname: "EL.MISMO" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    // Whichever check caught it, the message is next to the nickname.
    expect(refused.reason).toMatchObject({ fieldErrors: { nickname: ["Ese apodo ya está en uso"] } });
    expect(["BAD_USER_INPUT", "CONFLICT"]).toContain(refused.reason.code);
  });

  it("answers bad input with the spec's messages next to each field", async () => {
    const user = await createTestUser();
    await expect(
      updateUser(await ctxAs(actorFor(user)), {
        firstName: "Juan2",
        lastName: " Pérez",
        email: "juan@",
        nickname: "con espacio",
        documentType: "dni",
        documentNumber: "123",
        phoneNumber: "1234",
        state: "AR-ZZ",
      }),
    ).rejects.toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: {
        firstName: [expect.stringContaining("solo letras")],
        lastName: ["Este campo no puede contener espacios al inicio o al final"],
        email: ["Este campo debe ser un email válido"],
        nickname: ["Este campo no puede contener espacios"],
        documentNumber: ["Ingresá un número de documento válido"],
        phoneNumber: ["Ingresá un número de teléfono válido"],
        state: ["Elegí una provincia"],
      },
    });
    expect(await userRow(user.id)).toMatchObject({ firstName: "Sofía", lastName: "Peña" });
  });

  it("asks for the document type when a number is given", async () => {
    const user = await createTestUser();
    await expect(updateUser(await ctxAs(actorFor(user)), { documentNumber: "30123456" })).rejects.toMatchObject({
      fieldErrors: { documentType: ["Este campo es obligatorio"] },
    });
  });

  it("asks anonymous visitors to sign in", async () => {
    await expect(updateUser(await ctxAs(), { firstName: "Nadie" })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });
});

describe("findUsers", () => {
  beforeAll(async () => {
    await createTestUser({ email: "valentina.gomez@example.com", firstName: "Valentina", lastName: "Gómez" });
    await createTestUser({ email: "valen_ruiz@example.com", firstName: "Valentín", lastName: "Ruiz" });
  });

  it("finds anyone by part of their email or name, for the platform team", async () => {
    const searcher = await createTestUser({ roles: ["admin"] });
    const found = await findUsers(await ctxAs(actorFor(searcher)), "  valent ");
    expect(found.map((u) => u.email)).toEqual(["valen_ruiz@example.com", "valentina.gomez@example.com"]);
    expect(found[0]).toEqual({ id: expect.any(String), email: "valen_ruiz@example.com", firstName: "Valentín", lastName: "Ruiz" });
    expect(await findUsers(await ctxAs(actorFor(searcher)), "GÓMEZ")).toHaveLength(1);
  });

  it("organizers and promoter leads find the people of their organizations by part, anyone else only by the whole email", async () => {
    const db = await getDb();
    const [valentina] = await db.select().from(users).where(eq(users.email, "valentina.gomez@example.com"));
    for (const roles of [["producer"], ["promoter", "promoter_lead"]] as const) {
      const searcher = await createTestUser({ roles: [...roles] });
      await createOrganization("Búsquedas", [searcher, valentina]);
      const ctx = await ctxAs(actorFor(searcher));
      expect((await findUsers(ctx, "  valent ")).map((u) => u.email)).toEqual(["valentina.gomez@example.com"]);
      expect(await findUsers(ctx, "Ruiz")).toEqual([]);
      expect((await findUsers(ctx, "VALEN_RUIZ@example.com")).map((u) => u.email)).toEqual(["valen_ruiz@example.com"]);
    }
  });

  it("reads % and _ as themselves, and needs at least 2 characters", async () => {
    const searcher = await createTestUser({ roles: ["admin"] });
    const ctx = await ctxAs(actorFor(searcher));
    expect((await findUsers(ctx, "n_r")).map((u) => u.email)).toEqual(["valen_ruiz@example.com"]);
    expect(await findUsers(ctx, "%%")).toEqual([]);
    expect(await findUsers(ctx, "v")).toEqual([]);
  });

  it("is not for buyers, promoters or anonymous visitors", async () => {
    for (const roles of [[], ["promoter"], ["marketing"]] as const) {
      const someone = await createTestUser({ roles: [...roles] });
      await expect(findUsers(await ctxAs(actorFor(someone)), "valent")).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    await expect(findUsers(await ctxAs(), "valent")).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });
});

describe("findUsersByOrganization", () => {
  it("lists an organization's members, paged, to its members", async () => {
    const owner = await createTestUser({ email: "a-duena@example.com", firstName: "Ana", lastName: "Dueña", roles: ["producer"] });
    const staff = await Promise.all(
      ["b", "c", "d"].map((l) => createTestUser({ email: `${l}-staff@example.com`, firstName: "Staff", lastName: l.toUpperCase() })),
    );
    const outsider = await createTestUser({ email: "e-afuera@example.com" });
    const org = await createOrganization("Luna Producciones", [owner, ...staff]);
    await createOrganization("Otra Cosa", [outsider]);

    const first = await findUsersByOrganization(await ctxAs(actorFor(owner)), { organizationId: org.id, page: 0, limit: 2 });
    expect(first).toEqual({
      users: [
        { id: owner.id, firstName: "Ana", lastName: "Dueña", email: "a-duena@example.com" },
        { id: staff[0].id, firstName: "Staff", lastName: "B", email: "b-staff@example.com" },
      ],
      total: 4,
      page: 0,
      limit: 2,
    });
    const second = await findUsersByOrganization(await ctxAs(actorFor(staff[2])), { organizationId: org.id, page: 1, limit: 2 });
    expect(second.users.map((u) => u.email)).toEqual(["c-staff@example.com", "d-staff@example.com"]);

    const searched = await findUsersByOrganization(await ctxAs(actorFor(owner)), { organizationId: org.id, search: "D-STAFF" });
    expect(searched).toMatchObject({ total: 1, page: 0, limit: 10, users: [{ email: "d-staff@example.com" }] });
    // "_" is a letter here, not a wildcard.
    expect((await findUsersByOrganization(await ctxAs(actorFor(owner)), { organizationId: org.id, search: "_" })).total).toBe(0);
  });

  it("refuses a member of another organization, and lets an admin see any", async () => {
    const ownerA = await createTestUser();
    const ownerB = await createTestUser();
    await createOrganization("Org A", [ownerA]);
    const orgB = await createOrganization("Org B", [ownerB]);
    await expect(findUsersByOrganization(await ctxAs(actorFor(ownerA)), { organizationId: orgB.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // A producer role does not open other organizations either.
    const producer = await createTestUser({ roles: ["producer"] });
    await expect(findUsersByOrganization(await ctxAs(actorFor(producer)), { organizationId: orgB.id })).rejects.toMatchObject({ code: "FORBIDDEN" });

    const admin = await createTestUser({ roles: ["admin"] });
    await expect(findUsersByOrganization(await ctxAs(actorFor(admin)), { organizationId: orgB.id })).resolves.toMatchObject({
      total: 1,
      users: [{ id: ownerB.id }],
    });
  });

  it("keeps page and limit sensible, and says when the organization id is not one", async () => {
    const owner = await createTestUser();
    const org = await createOrganization("Limites", [owner]);
    const ctx = await ctxAs(actorFor(owner));
    expect(await findUsersByOrganization(ctx, { organizationId: org.id, page: -3, limit: 5000 })).toMatchObject({ page: 0, limit: 100, total: 1 });
    expect(await findUsersByOrganization(ctx, { organizationId: org.id, limit: 0 })).toMatchObject({ limit: 1 });
    await expect(findUsersByOrganization(ctx, { organizationId: "no-es-un-id" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(findUsersByOrganization(await ctxAs(), { organizationId: org.id })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });
});

describe("userByEmail", () => {
  it("tells a person which profile fields they still have to complete", async () => {
    const user = await createTestUser({ firstName: null, lastName: null, passwordHash: null, phoneNumber: "1155551234" });
    expect(await userByEmail(await ctxAs(actorFor(user)), user.email.toUpperCase())).toEqual({
      user: { id: user.id, phoneNumber: "1155551234" },
      fieldsToComplete: ["firstName", "lastName", "documentType", "documentNumber"],
    });
  });

  it("recognises the person after an email change, even while their token still carries the old email", async () => {
    const user = await createTestUser();
    const staleToken = actorFor(user);
    await updateUser(await ctxAs(staleToken), { email: "nuevo-email@example.com" });
    expect((await userByEmail(await ctxAs(staleToken), "nuevo-email@example.com")).user.id).toBe(user.id);
  });

  it("answers an admin about anyone", async () => {
    const admin = await createTestUser({ roles: ["admin"] });
    const user = await createTestUser({ documentType: "dni", documentNumber: "30123456", phoneNumber: "1155551234" });
    expect(await userByEmail(await ctxAs(actorFor(admin)), user.email)).toEqual({
      user: { id: user.id, phoneNumber: "1155551234" },
      fieldsToComplete: [],
    });
    await expect(userByEmail(await ctxAs(actorFor(admin)), "nadie@example.com")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("does not tell others whether an email has an account", async () => {
    const someone = await createTestUser({ roles: ["producer"] });
    const user = await createTestUser();
    await expect(userByEmail(await ctxAs(actorFor(someone)), user.email)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(userByEmail(await ctxAs(actorFor(someone)), "nadie@example.com")).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(userByEmail(await ctxAs(), user.email)).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });
});

describe("fetchUserByNickname", () => {
  it("tells anyone whose referral nickname it is, whatever the capitalisation", async () => {
    await createTestUser({ firstName: "Romina", lastName: "Relacionista", nickname: "Romi.RRPP" });
    expect(await fetchUserByNickname(await ctxAs(), "romi.rrpp")).toEqual({ firstName: "Romina", lastName: "Relacionista" });
    expect(await fetchUserByNickname(await ctxAs(), " ROMI.RRPP ")).toEqual({ firstName: "Romina", lastName: "Relacionista" });
  });

  it("says when nobody has it", async () => {
    await expect(fetchUserByNickname(await ctxAs(), "nadie")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
