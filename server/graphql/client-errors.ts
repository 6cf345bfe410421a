import { GraphQLError } from "graphql";
import { LIMIT_MESSAGES } from "./limits";

/**
 * A client's own mistake in the variables (a quantity of 1.5, "x", a number
 * past 32 bits, a missing required field) is a client error: BAD_USER_INPUT
 * with a Spanish message and the variable's path, never INTERNAL_SERVER_ERROR
 * (integrators would read their mistake as our crash, and monitoring would
 * count it as one).
 */
const VARIABLE = /^Variable "\$([^"]+)" (?:got invalid value .*?(?: at "([^"]+)")?; (.*)|of required type "([^"]+)" was not provided\.|of non-null type "([^"]+)" must not be null\.)$/s;

function spanishReason(reason: string): string {
  let m: RegExpExecArray | null;
  if (/^Int cannot represent non 32-bit signed integer value/.test(reason)) return "tiene que ser un número entero entre -2147483648 y 2147483647";
  if (/^Int cannot represent/.test(reason)) return "tiene que ser un número entero";
  if (/^Float cannot represent/.test(reason)) return "tiene que ser un número";
  if (/^Boolean cannot represent/.test(reason)) return "tiene que ser true o false";
  if (/^String cannot represent/.test(reason)) return "tiene que ser un texto";
  if (/^ID cannot represent/.test(reason)) return "tiene que ser un identificador (texto o número)";
  if ((m = /^Value "?(.*?)"? does not exist in "(\w+)" enum/.exec(reason))) return `«${m[1]}» no es un valor de ${m[2]}`;
  if ((m = /^Field "(\w+)" of required type "([^"]+)" was not provided/.exec(reason))) return `falta el campo «${m[1]}» (${m[2]})`;
  if ((m = /^Field "(\w+)" is not defined by type "(\w+)"/.exec(reason))) return `el campo «${m[1]}» no existe en ${m[2]}`;
  if (/^Expected type "(\w+)" to be an object/.test(reason)) return "tiene que ser un objeto";
  if (/^Expected value of type/.test(reason)) return "no tiene el tipo esperado";
  return "no tiene el tipo esperado";
}

/** The client-error version of a variable-coercion error, or null when it is something else. */
export function variableError(error: { message: string; nodes?: GraphQLError["nodes"] }): GraphQLError | null {
  const m = VARIABLE.exec(error.message);
  if (!m) return null;
  const [, variable, at, reason, missingType, nullType] = m;
  const field = at ?? variable;
  const message = missingType
    ? `Falta la variable «$${variable}» (${missingType}).`
    : nullType
      ? `La variable «$${variable}» no puede ser null (${nullType}).`
      : `Revisá «${field}»: ${spanishReason(reason ?? "")}.`;
  return new GraphQLError(message, {
    nodes: error.nodes,
    extensions: { code: "BAD_USER_INPUT", field, fieldErrors: { [field]: [message] } },
  });
}

const LIMITS = new Map<string, string>(Object.values(LIMIT_MESSAGES).map((m) => [m, m]));
// Armor prefixes its messages ("Syntax Error: …"); the token limit is the parser's own and ignores the message option.
const ARMOR_PREFIX = /^Syntax Error: /;
const TOKEN_LIMIT = /^Syntax Error: Token limit of \d+ exceeded/;

/**
 * The client-error version of an error that is the client's doing: a query
 * over the limits (GRAPHQL_VALIDATION_FAILED, 400) or a bad variable
 * (BAD_USER_INPUT). Null for anything else.
 */
export function clientError(error: { message: string; nodes?: GraphQLError["nodes"] }): GraphQLError | null {
  const limit = TOKEN_LIMIT.test(error.message) ? LIMIT_MESSAGES.tokens : LIMITS.get(error.message.replace(ARMOR_PREFIX, ""));
  if (limit) return new GraphQLError(limit, { extensions: { code: "GRAPHQL_VALIDATION_FAILED", http: { status: 400 } } });
  return variableError(error);
}
