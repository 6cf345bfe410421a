import { eq } from "drizzle-orm";
import { hashPassword } from "#server/auth/password";
import type { Db } from "./client";
import { users } from "./schema";
import { seedDemoEvents } from "./seed-events";

/** Demo accounts (README lists them). One password for all: handy on a laptop, never in production data. */
export const DEMO_PASSWORD = "tribuna1234";

export const DEMO_USERS = [
  { email: "admin@tribuna.ar", firstName: "Ana", lastName: "Administradora", roles: ["admin"], nickname: "ana.admin" },
  { email: "productor@tribuna.ar", firstName: "Pablo", lastName: "Productor", roles: ["producer"], nickname: "pablo.productor" },
  { email: "rrpp@tribuna.ar", firstName: "Romina", lastName: "Relacionista", roles: ["promoter"], nickname: "romi" },
  { email: "lider-rrpp@tribuna.ar", firstName: "Lucas", lastName: "Líder", roles: ["promoter", "promoter_lead"], nickname: "lucas.lider" },
  { email: "marketing@tribuna.ar", firstName: "Micaela", lastName: "Marketing", roles: ["marketing"], nickname: "mica.mkt" },
  {
    email: "comprador@tribuna.ar",
    firstName: "Joaquín",
    lastName: "Muñoz",
    roles: [],
    nickname: "joaco",
    documentType: "dni",
    documentNumber: "30123456",
    phoneNumber: "+5491155551234",
    state: "AR-CF",
    address: "Av. Corrientes 1234",
  },
] as const;

/** Idempotent: safe to run on every start; only inserts what is missing. */
export async function seedDemo(db: Db) {
  const [already] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_USERS[0].email));
  if (already) return { created: false };
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const inserted = await db
    .insert(users)
    .values(DEMO_USERS.map((u) => ({ ...u, roles: [...u.roles], passwordHash })))
    .onConflictDoNothing()
    .returning();
  const producer = inserted.find((u) => u.email === "productor@tribuna.ar");
  await seedDemoEvents(db, producer?.id ?? null);
  return { created: true };
}
