import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { organizationTextFields } from "#common/organizations";
import { optional } from "#common/validation";
import { checkPassColors } from "#common/pass-colors";
import { walletEventsChanged } from "#server/tickets/wallet-changes";
import type { Ctx } from "#server/context";
import { memberships, organizations, users } from "#server/db/schema";
import { Invalid, NotFound, Unauthenticated } from "#server/errors";
import { storedImageUrlSchema } from "#server/media/images";
import { parseInput, type DomainInput } from "#server/validation";
import { requireCapability } from "./permissions";
import { SLUG_MESSAGES, slugProblem, slugify } from "./slugs";
import { isUniqueViolation } from "#server/db/errors";

export type Organization = typeof organizations.$inferSelect;

const slugSchema = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .superRefine((v, issue) => {
    const problem = slugProblem(v);
    if (problem) issue.addIssue({ code: "custom", message: problem });
  });

const organizationFields = {
  ...organizationTextFields,
  logoUrl: optional(storedImageUrlSchema),
};

export const createOrganizationSchema = z.object({ ...organizationFields, slug: optional(slugSchema) });
export const updateOrganizationSchema = z
  .object({
    ...organizationFields,
    id: z.string().uuid(),
    slug: slugSchema,
    // The wallet passes' colours (decision 221): both or neither, with AA contrast (common/pass-colors.ts).
    passBackgroundColor: optional(z.string()),
    passTextColor: optional(z.string()),
  })
  .superRefine((v, issue) => {
    const check = checkPassColors(v.passBackgroundColor, v.passTextColor);
    if (!check.ok) issue.addIssue({ code: "custom", path: [check.field], message: check.message });
  });

/**
 * `/organizacion/por-crear`: the signed-in user creates an organization and
 * becomes its owner and a producer.
 */
export async function createOrganization(ctx: Ctx, input: DomainInput<typeof createOrganizationSchema>): Promise<Organization> {
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  const userId = ctx.actor.userId;
  const data = parseInput(createOrganizationSchema, input);
  const slug = data.slug ?? slugify(data.name);
  const problem = slugProblem(slug);
  if (problem) throw new Invalid({ slug: [problem] });
  try {
    return await ctx.db.transaction(async (tx) => {
      const [organization] = await tx
        .insert(organizations)
        .values({ ...data, slug, createdAt: ctx.now, updatedAt: ctx.now })
        .returning();
      await tx.insert(memberships).values({ organizationId: organization.id, userId, role: "owner", createdAt: ctx.now });
      await tx
        .update(users)
        .set({ roles: sql`array_append(${users.roles}, 'producer')` })
        .where(and(eq(users.id, userId), sql`NOT ('producer' = ANY(${users.roles}))`));
      return organization;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new Invalid({ slug: [SLUG_MESSAGES.taken] });
    throw error;
  }
}

/** `/organizacion/detalle`: owners and admins edit the organization. */
export async function updateOrganization(ctx: Ctx, input: DomainInput<typeof updateOrganizationSchema>): Promise<Organization> {
  const data = parseInput(updateOrganizationSchema, input);
  await requireCapability(ctx, data.id, "organization:manage");
  const check = checkPassColors(data.passBackgroundColor, data.passTextColor);
  const colors = check.ok ? check.colors : null;
  try {
    return await ctx.db.transaction(async (tx) => {
      const [before] = await tx.select({ bg: organizations.passBackgroundColor, text: organizations.passTextColor }).from(organizations).where(eq(organizations.id, data.id));
      const [updated] = await tx
        .update(organizations)
        .set({
          ...data,
          description: data.description ?? null,
          contactPhone: data.contactPhone ?? null,
          logoUrl: data.logoUrl ?? null,
          passBackgroundColor: colors?.background ?? null,
          passTextColor: colors?.text ?? null,
          updatedAt: ctx.now,
        })
        .where(eq(organizations.id, data.id))
        .returning();
      if (!updated) throw new NotFound("No encontramos la organización.");
      // New colours: the Google Wallet classes of its events are patched (docs/wallet.md).
      if (before && (before.bg !== updated.passBackgroundColor || before.text !== updated.passTextColor)) await walletEventsChanged(tx, { organizationId: updated.id }, ctx.now);
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new Invalid({ slug: [SLUG_MESSAGES.taken] });
    throw error;
  }
}

/** Public: the organization behind `/{slug}`. */
export async function getOrganizationBySlug(ctx: Ctx, slug: string): Promise<Organization> {
  const [organization] = await ctx.db.select().from(organizations).where(eq(organizations.slug, slug.toLowerCase()));
  if (!organization) throw new NotFound("No encontramos la organización.");
  return organization;
}

/** Back office: one organization, for its members only. */
export async function getOrganizationForMember(ctx: Ctx, organizationId: string): Promise<Organization> {
  await requireCapability(ctx, organizationId, "door:operate");
  const [organization] = await ctx.db.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!organization) throw new NotFound("No encontramos la organización.");
  return organization;
}

/** The organizations the signed-in user belongs to, with their role in each. */
export async function listMyOrganizations(ctx: Ctx) {
  if (ctx.actor.kind !== "user") throw new Unauthenticated();
  return ctx.db
    .select({ id: organizations.id, name: organizations.name, slug: organizations.slug, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, ctx.actor.userId))
    .orderBy(asc(organizations.name));
}
