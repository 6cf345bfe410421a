import SchemaBuilder from "@pothos/core";
import type { Ctx } from "#server/context";
import type { Tokens } from "#server/auth/sessions";

export interface GraphQLContext {
  ctx: Ctx;
  request: Request;
  refreshToken: string | null;
  /** Tokens to hand back in response headers (and cookies for browser clients). */
  issueTokens(tokens: Tokens): void;
  clearTokens(): void;
}

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  DefaultFieldNullability: true;
  Scalars: { File: { Input: File; Output: never }; JSON: { Input: unknown; Output: unknown } };
}>({});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
