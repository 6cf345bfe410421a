import { EnvelopArmor } from "@escape.tech/graphql-armor";

/**
 * Limits on what one GraphQL request may ask for, enforced by GraphQL Armor
 * (Escape's well-kept plugins) while the query is validated, before any
 * resolver runs: a refused query costs a parse and a walk of the document.
 * The numbers leave room for our own pages and every example in docs/api.md
 * (a test runs them all through these limits); decision 101 says why each.
 */
export const GRAPHQL_LIMITS = {
  /** Nesting: our deepest documented query (myTickets → items → event → venue) is 4. */
  depth: 8,
  /** 300 aliases of `events` were answered with 480 KB: a handful is what any client needs. */
  aliases: 15,
  /** Armor's cost (scalars 1, objects 2, growing with depth): our costliest documented query is 113, a full page of events 101. */
  cost: 1000,
  tokens: 2000,
  directives: 20,
} as const;

const production = process.env.NODE_ENV === "production";

/** What a refused query hears, in Spanish (Armor's own messages are English). */
export const LIMIT_MESSAGES = {
  depth: `La consulta tiene demasiados niveles (máximo ${GRAPHQL_LIMITS.depth}).`,
  aliases: `La consulta usa demasiados alias (máximo ${GRAPHQL_LIMITS.aliases}).`,
  cost: `La consulta pide demasiado de una vez (costo máximo ${GRAPHQL_LIMITS.cost}).`,
  tokens: `La consulta es demasiado larga (máximo ${GRAPHQL_LIMITS.tokens} tokens).`,
  directives: `La consulta usa demasiadas directivas (máximo ${GRAPHQL_LIMITS.directives}).`,
} as const;

export const armor = new EnvelopArmor({
  maxDepth: { n: GRAPHQL_LIMITS.depth, ignoreIntrospection: true, exposeLimits: false, errorMessage: LIMIT_MESSAGES.depth },
  maxAliases: { n: GRAPHQL_LIMITS.aliases, exposeLimits: false, errorMessage: LIMIT_MESSAGES.aliases },
  costLimit: { maxCost: GRAPHQL_LIMITS.cost, ignoreIntrospection: true, exposeLimits: false, errorMessage: LIMIT_MESSAGES.cost },
  maxTokens: { n: GRAPHQL_LIMITS.tokens, exposeLimits: false, errorMessage: LIMIT_MESSAGES.tokens },
  maxDirectives: { n: GRAPHQL_LIMITS.directives, exposeLimits: false, errorMessage: LIMIT_MESSAGES.directives },
  // "Did you mean …?" maps the schema for a stranger; integrators have the printed schema and introspection.
  blockFieldSuggestion: { enabled: production },
}).protect();
