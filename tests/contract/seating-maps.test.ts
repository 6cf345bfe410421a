import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startSession } from "#server/auth/sessions";
import { getDb } from "#server/db/client";
import { memberships } from "#server/db/schema";
import { createTestUser } from "#tests/support/context";
import { createProducer } from "#tests/support/factories";
import { errorCode, gql } from "#tests/support/graphql";

/** The back office's map operations over GraphQL, as an integrator with a token uses them (docs/api.md, decision 237). */

const pretixFile = readFileSync(new URL("../fixtures/seating/pretix-teatro-del-pasaje.json", import.meta.url), "utf8");

const IMPORT = `mutation($input: ImportSeatMapInput!) { importSeatMap(input: $input) { seatMap { id organizationId name version plan } warnings } }`;
const PRETIX = `query($id: ID!) { seatMapPretix(id: $id) }`;
const EDIT = `mutation($input: EditSeatMapInput!) { editSeatMap(input: $input) { id version plan } }`;

interface Plan {
  name: string;
  categories: { name: string; color?: string }[];
  sections: { id: string; name: string; rows: { label: string; seats: { guid: string; number: string; accessible?: boolean }[] }[] }[];
}

const seatCount = (plan: Plan) => plan.sections.flatMap((s) => s.rows.flatMap((r) => r.seats)).length;

async function producerWithToken() {
  const made = await createProducer();
  const tokens = await startSession(await getDb(), { ...made.user, roles: ["producer"] }, new Date());
  return { ...made, tokens };
}

describe("seat maps from pretix and the editor's operations over GraphQL", () => {
  it("imports a pretix plan (its JSON or its text), exports it back with the same seats, and refuses a bad file next to pretixPlan", async () => {
    const org = await producerWithToken();
    const imported = await gql<{ importSeatMap: { seatMap: { id: string; organizationId: string; name: string; version: number; plan: Plan }; warnings: string[] } }>(IMPORT, {
      tokens: org.tokens,
      variables: { input: { organizationId: org.organization.id, pretixPlan: JSON.parse(pretixFile) } },
    });
    expect(imported.body.errors).toBeUndefined();
    const map = imported.body.data!.importSeatMap.seatMap;
    expect(map).toMatchObject({ organizationId: org.organization.id, name: "Teatro del Pasaje", version: 1 });
    expect(imported.body.data!.importSeatMap.warnings).toEqual([]);
    const seats = seatCount(map.plan);
    expect(seats).toBeGreaterThan(0);

    // The file's text works too, and `name` renames the map.
    const named = await gql<{ importSeatMap: { seatMap: { name: string; plan: Plan } } }>(IMPORT, {
      tokens: org.tokens,
      variables: { input: { organizationId: org.organization.id, name: "Pasaje (copia)", pretixPlan: pretixFile } },
    });
    expect(named.body.errors).toBeUndefined();
    expect(named.body.data!.importSeatMap.seatMap).toMatchObject({ name: "Pasaje (copia)", plan: { name: "Pasaje (copia)" } });

    // Exported to pretix and imported back: the same seats.
    const exported = await gql<{ seatMapPretix: { name: string } }>(PRETIX, { tokens: org.tokens, variables: { id: map.id } });
    expect(exported.body.errors).toBeUndefined();
    expect(exported.body.data!.seatMapPretix.name).toBe("Teatro del Pasaje");
    const back = await gql<{ importSeatMap: { seatMap: { plan: Plan } } }>(IMPORT, {
      tokens: org.tokens,
      variables: { input: { organizationId: org.organization.id, pretixPlan: exported.body.data!.seatMapPretix } },
    });
    expect(back.body.errors).toBeUndefined();
    const guids = (plan: Plan) => plan.sections.flatMap((s) => s.rows.flatMap((r) => r.seats.map((seat) => `${s.name}/${r.label}/${seat.number}`))).sort();
    expect(guids(back.body.data!.importSeatMap.seatMap.plan)).toEqual(guids(map.plan));

    // Not a pretix plan: Spanish messages under pretixPlan; a name too long, under name.
    const bad = await gql(IMPORT, { tokens: org.tokens, variables: { input: { organizationId: org.organization.id, pretixPlan: { zones: "ninguna" } } } });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
    const badErrors = bad.body.errors![0].extensions!.fieldErrors!;
    expect(Object.keys(badErrors)).toEqual(["pretixPlan"]);
    expect(badErrors.pretixPlan).toContain("El plano: la lista de zonas (zones) tiene que ser una lista.");
    const notJson = await gql(IMPORT, { tokens: org.tokens, variables: { input: { organizationId: org.organization.id, pretixPlan: "{ esto no es JSON" } } });
    expect(errorCode(notJson)).toBe("BAD_USER_INPUT");
    expect(Object.keys(notJson.body.errors![0].extensions!.fieldErrors!)).toEqual(["pretixPlan"]);
    const tooBig = await gql(IMPORT, { tokens: org.tokens, variables: { input: { organizationId: org.organization.id, pretixPlan: "x".repeat(2 * 1024 * 1024 + 1) } } });
    expect(tooBig.body.errors?.[0]).toMatchObject({
      message: "El archivo pesa más de 2 MB, el máximo para subir un plano.",
      extensions: { code: "BAD_USER_INPUT", fieldErrors: { pretixPlan: ["El archivo pesa más de 2 MB, el máximo para subir un plano."] } },
    });
    const longName = await gql(IMPORT, { tokens: org.tokens, variables: { input: { organizationId: org.organization.id, name: "x".repeat(121), pretixPlan: pretixFile } } });
    expect(longName.body.errors?.[0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT", fieldErrors: { name: ["El nombre del mapa puede tener hasta 120 caracteres."] } } });
  });

  it("edits a map one operation at a time on the version it read: CONFLICT on a stale one, Spanish messages under operation", async () => {
    const org = await producerWithToken();
    const imported = await gql<{ importSeatMap: { seatMap: { id: string; plan: Plan } } }>(IMPORT, {
      tokens: org.tokens,
      variables: { input: { organizationId: org.organization.id, pretixPlan: pretixFile } },
    });
    const map = imported.body.data!.importSeatMap.seatMap;
    const before = seatCount(map.plan);

    const category = await gql<{ editSeatMap: { version: number; plan: Plan } }>(EDIT, {
      tokens: org.tokens,
      variables: { input: { id: map.id, version: 1, operation: { op: "add-category", name: "Palcos", color: "#7c3aed" } } },
    });
    expect(category.body.errors).toBeUndefined();
    expect(category.body.data!.editSeatMap.version).toBe(2);
    expect(category.body.data!.editSeatMap.plan.categories).toContainEqual({ name: "Palcos", color: "#7c3aed" });

    const block = await gql<{ editSeatMap: { version: number; plan: Plan } }>(EDIT, {
      tokens: org.tokens,
      variables: { input: { id: map.id, version: 2, operation: { op: "add-block", sectionName: "Palco bajo", rows: 2, seatsPerRow: 4, firstRowLabel: "A", numbering: "ltr", category: "Palcos" } } },
    });
    expect(block.body.errors).toBeUndefined();
    const palco = block.body.data!.editSeatMap.plan.sections.find((s) => s.name === "Palco bajo")!;
    expect(palco.rows.map((r) => [r.label, r.seats.map((s) => s.number).join(",")])).toEqual([
      ["A", "1,2,3,4"],
      ["B", "1,2,3,4"],
    ]);
    expect(seatCount(block.body.data!.editSeatMap.plan)).toBe(before + 8);

    // JSON-friendly shapes: a row index as a number, seats as a list, a mark as a boolean.
    const marked = await gql<{ editSeatMap: { version: number; plan: Plan } }>(EDIT, {
      tokens: org.tokens,
      variables: { input: { id: map.id, version: 3, operation: { op: "mark", sectionId: palco.id, row: 1, seats: [1, 2], accessible: true } } },
    });
    expect(marked.body.errors).toBeUndefined();
    const rowB = marked.body.data!.editSeatMap.plan.sections.find((s) => s.id === palco.id)!.rows[1];
    expect(rowB.seats.filter((s) => s.accessible).map((s) => s.number)).toEqual(["1", "2"]);

    // Someone saved version 4 meanwhile: version 3 is stale.
    const stale = await gql(EDIT, { tokens: org.tokens, variables: { input: { id: map.id, version: 3, operation: { op: "remove", sectionId: palco.id } } } });
    expect(stale.body.errors?.[0]).toMatchObject({
      message: "Alguien más guardó este mapa mientras lo editabas. Volvé a abrirlo y hacé tus cambios de nuevo.",
      extensions: { code: "CONFLICT" },
    });

    const badField = await gql(EDIT, {
      tokens: org.tokens,
      variables: { input: { id: map.id, version: 4, operation: { op: "add-block", sectionName: "Pullman alto", rows: 0, seatsPerRow: 4, firstRowLabel: "A", numbering: "ltr", category: "Palcos" } } },
    });
    expect(badField.body.errors?.[0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT", fieldErrors: { "operation.rows": ["Poné cuántas filas: un número entero de 1 a 200."] } } });
    const unknownOp = await gql(EDIT, { tokens: org.tokens, variables: { input: { id: map.id, version: 4, operation: { op: "pintar" } } } });
    expect(unknownOp.body.errors?.[0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT", fieldErrors: { "operation.op": ["Elegí qué cambiar en el mapa."] } } });
    // The plan cannot take it (a category that is not in the map): the editor's message under operation.
    const noCategory = await gql(EDIT, { tokens: org.tokens, variables: { input: { id: map.id, version: 4, operation: { op: "category", sectionId: palco.id, category: "Pullman VIP" } } } });
    expect(errorCode(noCategory)).toBe("BAD_USER_INPUT");
    expect(Object.keys(noCategory.body.errors![0].extensions!.fieldErrors!)).toEqual(["operation"]);
    // None of the refusals saved anything.
    const after = await gql<{ seatMap: { version: number } }>(`query($id: ID!) { seatMap(id: $id) { version } }`, { tokens: org.tokens, variables: { id: map.id } });
    expect(after.body.data!.seatMap.version).toBe(4);
  });

  it("another organization's map is NOT_FOUND; a member without events:manage is FORBIDDEN; no token, UNAUTHENTICATED", async () => {
    const org = await producerWithToken();
    const imported = await gql<{ importSeatMap: { seatMap: { id: string } } }>(IMPORT, {
      tokens: org.tokens,
      variables: { input: { organizationId: org.organization.id, pretixPlan: pretixFile } },
    });
    const id = imported.body.data!.importSeatMap.seatMap.id;
    const edit = { input: { id, version: 1, operation: { op: "add-category", name: "Palcos" } } };

    const other = await producerWithToken();
    expect(errorCode(await gql(PRETIX, { tokens: other.tokens, variables: { id } }))).toBe("NOT_FOUND");
    expect(errorCode(await gql(EDIT, { tokens: other.tokens, variables: edit }))).toBe("NOT_FOUND");
    expect(errorCode(await gql(IMPORT, { tokens: other.tokens, variables: { input: { organizationId: org.organization.id, pretixPlan: pretixFile } } }))).toBe("FORBIDDEN");

    const staffUser = await createTestUser();
    await (await getDb()).insert(memberships).values({ organizationId: org.organization.id, userId: staffUser.id, role: "staff" });
    const staff = await startSession(await getDb(), staffUser, new Date());
    expect(errorCode(await gql(PRETIX, { tokens: staff, variables: { id } }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(EDIT, { tokens: staff, variables: edit }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(IMPORT, { tokens: staff, variables: { input: { organizationId: org.organization.id, pretixPlan: pretixFile } } }))).toBe("FORBIDDEN");

    expect(errorCode(await gql(PRETIX, { variables: { id } }))).toBe("UNAUTHENTICATED");
    expect(errorCode(await gql(EDIT, { variables: edit }))).toBe("UNAUTHENTICATED");
    // A map that does not exist.
    expect(errorCode(await gql(PRETIX, { tokens: org.tokens, variables: { id: "00000000-0000-4000-8000-000000000000" } }))).toBe("NOT_FOUND");
    // Nothing was edited.
    const map = await gql<{ seatMap: { version: number } }>(`query($id: ID!) { seatMap(id: $id) { version } }`, { tokens: org.tokens, variables: { id } });
    expect(map.body.data!.seatMap.version).toBe(1);
  });
});
