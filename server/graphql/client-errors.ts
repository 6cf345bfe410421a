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

/**
 * How the HTTP status of a request error of a well-formed request (parse, validation, limits, operation, variables)
 * is chosen, as the GraphQL over HTTP spec recommends (decision 179): 400 for `application/graphql-response+json`,
 * 200 for `application/json`, whose legacy clients cannot tell our 4xx from a proxy's. `spec: true` is yoga's mark
 * for that (its result processor skips the status for application/json); without it the status holds for both.
 */
const documentError = () => ({ status: 400, spec: true });

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
    // A request error of a well-formed request: 400 for application/graphql-response+json, 200 for application/json (documentError).
    extensions: { code: "BAD_USER_INPUT", field, fieldErrors: { [field]: [message] }, http: documentError() },
  });
}

const LIMITS = new Map<string, string>(Object.values(LIMIT_MESSAGES).map((m) => [m, m]));
// Armor prefixes its messages ("Syntax Error: …"); the token limit is the parser's own and ignores the message option.
const ARMOR_PREFIX = /^Syntax Error: /;
const TOKEN_LIMIT = /^Syntax Error: Token limit of \d+ exceeded/;

type Translation = { message: string; field?: string };
type Rule = [RegExp, (m: RegExpExecArray) => Translation];

/**
 * graphql-js's validation and syntax messages (v16 wording), in Spanish with
 * the field, argument or variable they are about. Names in them are GraphQL
 * names ([_A-Za-z][_0-9A-Za-z]*), so nothing the client typed beyond a name
 * comes back.
 */
const VALIDATION_RULES: Rule[] = [
  [/^Cannot query field "(\w+)" on type "(\w+)"\./, (m) => ({ message: `El campo «${m[1]}» no existe en ${m[2]}.`, field: m[1] })],
  [/^Unknown argument "(\w+)" on field "([\w.]+)"\./, (m) => ({ message: `El argumento «${m[1]}» no existe en «${m[2]}».`, field: m[1] })],
  [/^Unknown argument "(\w+)" on directive "@(\w+)"\./, (m) => ({ message: `El argumento «${m[1]}» no existe en la directiva «@${m[2]}».`, field: m[1] })],
  [
    /^Field "([\w.]+)" argument "(\w+)" of type "([^"]+)" is required, but it was not provided\./,
    (m) => ({ message: `Falta el argumento «${m[2]}» (${m[3]}) de «${m[1]}».`, field: m[2] }),
  ],
  [
    /^Directive "@(\w+)" argument "(\w+)" of type "([^"]+)" is required, but it was not provided\./,
    (m) => ({ message: `Falta el argumento «${m[2]}» (${m[3]}) de la directiva «@${m[1]}».`, field: m[2] }),
  ],
  [/^Field "(\w+)" must not have a selection since type "([^"]+)" has no subfields\./, (m) => ({ message: `El campo «${m[1]}» (${m[2]}) no tiene subcampos: sacale la selección { … }.`, field: m[1] })],
  [/^Field "(\w+)" of type "([^"]+)" must have a selection of subfields\./, (m) => ({ message: `El campo «${m[1]}» (${m[2]}) necesita una selección de subcampos, por ejemplo { id }.`, field: m[1] })],
  [/^Field "(\w+)" is not defined by type "(\w+)"\./, (m) => ({ message: `El campo «${m[1]}» no existe en ${m[2]}.`, field: m[1] })],
  [/^Field "([\w.]+)" of required type "([^"]+)" was not provided\./, (m) => ({ message: `Falta el campo «${m[1]}» (${m[2]}).`, field: m[1] })],
  [/^Variable "\$(\w+)" is never used/, (m) => ({ message: `La variable «$${m[1]}» está declarada pero no se usa.`, field: m[1] })],
  [/^Variable "\$(\w+)" is not defined/, (m) => ({ message: `La variable «$${m[1]}» se usa pero no está declarada en la operación.`, field: m[1] })],
  [
    /^Variable "\$(\w+)" of type "([^"]+)" used in position expecting type "([^"]+)"\./,
    (m) => ({ message: `La variable «$${m[1]}» es de tipo ${m[2]} y ahí se espera ${m[3]}.`, field: m[1] }),
  ],
  [/^Variable "\$(\w+)" cannot be non-input type "([^"]+)"\./, (m) => ({ message: `La variable «$${m[1]}» no puede ser de tipo ${m[2]}.`, field: m[1] })],
  [/^There can be only one variable named "\$(\w+)"\./, (m) => ({ message: `La variable «$${m[1]}» está declarada dos veces.`, field: m[1] })],
  [/^There can be only one argument named "(\w+)"\./, (m) => ({ message: `El argumento «${m[1]}» está dos veces.`, field: m[1] })],
  [/^There can be only one input field named "(\w+)"\./, (m) => ({ message: `El campo «${m[1]}» está dos veces.`, field: m[1] })],
  [/^There can be only one operation named "(\w+)"\./, (m) => ({ message: `Hay dos operaciones llamadas «${m[1]}».` })],
  [/^There can be only one fragment named "(\w+)"\./, (m) => ({ message: `Hay dos fragmentos llamados «${m[1]}».` })],
  [/^This anonymous operation must be the only defined operation\./, () => ({ message: "Una operación sin nombre tiene que ser la única del pedido." })],
  [/^(?:Anonymous Subscription|Subscription "\w+") must select only one top level field\./, () => ({ message: "Una suscripción pide un solo campo." })],
  [/^Unknown type "(\w+)"\./, (m) => ({ message: `El tipo «${m[1]}» no existe.` })],
  [/^Unknown directive "@(\w+)"\./, (m) => ({ message: `La directiva «@${m[1]}» no existe.` })],
  [/^The directive "@(\w+)" can only be used once at this location\./, (m) => ({ message: `La directiva «@${m[1]}» va una sola vez en cada lugar.` })],
  [/^Directive "@(\w+)" may not be used on/, (m) => ({ message: `La directiva «@${m[1]}» no se puede usar ahí.` })],
  [/^Unknown fragment "(\w+)"\./, (m) => ({ message: `El fragmento «${m[1]}» no existe.` })],
  [/^Fragment "(\w+)" is never used\./, (m) => ({ message: `El fragmento «${m[1]}» no se usa.` })],
  [/^Cannot spread fragment "(\w+)" within itself/, (m) => ({ message: `El fragmento «${m[1]}» se incluye a sí mismo.` })],
  [/^Fragment (?:"(\w+)" )?cannot be spread here/, () => ({ message: "Ese fragmento no se puede usar ahí: su tipo no corresponde." })],
  [/^Fragment (?:"(\w+)" )?cannot condition on non composite type "(\w+)"\./, (m) => ({ message: `Un fragmento no puede ser sobre ${m[2]}.` })],
  [/^Fields "(\w+)" conflict because/, (m) => ({ message: `«${m[1]}» aparece dos veces pidiendo cosas distintas: usá un alias para una de ellas.`, field: m[1] })],
  [/^Enum "(\w+)" cannot represent non-enum value: (.*?)\./, (m) => ({ message: `Revisá el valor ${m[2]}: no es un valor de ${m[1]}.` })],
  [/^Value "?(.*?)"? does not exist in "(\w+)" enum\./, (m) => ({ message: `Revisá el valor «${m[1]}»: no es un valor de ${m[2]}.` })],
  [/^(Int|Float|String|Boolean|ID) cannot represent/, (m) => ({ message: `Revisá el valor: ${spanishReason(m.input)}.` })],
  [/^Expected value of type "([^"]+)", found/, (m) => ({ message: `Revisá el valor: tiene que ser de tipo ${m[1]}.` })],
  [/^Must provide (?:query string|document)\./, () => ({ message: "Falta la consulta (query)." })],
  [/^Must provide operation name if query contains multiple operations\./, () => ({ message: "El pedido tiene varias operaciones: decí cuál correr con operationName." })],
  [/^Unknown operation named "(\w+)"\./, (m) => ({ message: `No hay ninguna operación llamada «${m[1]}» en la consulta.` })],
];

const SUGGESTION = /Did you mean (.+?)\?/;

/** "Did you mean "a", "b", or "c"?" → "¿Quisiste decir «a», «b» o «c»?" (never in production, decision 101). */
function spanishSuggestion(message: string, production: boolean): string {
  if (production) return "";
  const m = SUGGESTION.exec(message);
  if (!m) return "";
  // Only names: "events { ... }" (a missing selection) says nothing the message does not.
  const names = [...m[1].matchAll(/"(\w+)"/g)].map((n) => `«${n[1]}»`);
  if (!names.length) return "";
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} o ${names[names.length - 1]}`;
  return ` ¿Quisiste decir ${list}?`;
}

const translated = new WeakSet<object>();

interface ErrorLike {
  message: string;
  nodes?: GraphQLError["nodes"];
  source?: GraphQLError["source"];
  positions?: GraphQLError["positions"];
  locations?: GraphQLError["locations"];
  extensions?: Record<string, unknown>;
}

/**
 * A query graphql-js refused while validating it (unknown field, missing
 * argument, wrong literal…): the same code and 400, with a Spanish message
 * and the field, argument or variable it is about (`extensions.field`).
 * Used by `spanishValidation` (yoga.ts) on every validation error.
 */
export function validationError(error: ErrorLike, production = process.env.NODE_ENV === "production"): GraphQLError {
  // Yoga caches validation results: an error translated for an earlier request comes back through here.
  if (translated.has(error)) return error as GraphQLError;
  let translation: Translation | null = null;
  for (const [pattern, translate] of VALIDATION_RULES) {
    const m = pattern.exec(error.message);
    if (m) {
      translation = translate(m);
      break;
    }
  }
  // A rule graphql-js may add later: still Spanish, with its own words after it.
  translation ??= { message: `La consulta no es válida: ${error.message.replace(SUGGESTION, "").replace(/\s*\[Suggestion hidden\]/, "").trim()}` };
  const code = typeof error.extensions?.code === "string" ? error.extensions.code : "GRAPHQL_VALIDATION_FAILED";
  const spanish = new GraphQLError(translation.message + spanishSuggestion(error.message, production), {
    nodes: error.nodes,
    extensions: { code, ...(translation.field ? { field: translation.field } : {}), http: documentError() },
  });
  translated.add(spanish);
  return spanish;
}

/** What yoga says about a request it cannot read (code BAD_REQUEST or OPERATION_RESOLUTION_FAILURE), in Spanish. */
const REQUEST_RULES: [RegExp, string][] = [
  [/^Could not determine what operation to execute\./, "No sabemos qué operación correr: mandá operationName con una de las de la consulta."],
  [/^Can only perform a mutation operation from a POST request\./, "Las mutaciones van por POST."],
  [/^GraphQL only supports GET and POST requests\./, "GraphQL acepta solo GET y POST."],
  [/^Must provide query string\./, "Falta la consulta (query)."],
  [/^POST body sent invalid JSON\./, "El cuerpo del pedido no es JSON válido."],
  [/^POST body is expected to be object/, "El cuerpo del pedido tiene que ser un objeto JSON con query y variables."],
  [/^Expected params to be an object/, "El cuerpo del pedido tiene que ser un objeto JSON con query y variables."],
  [/^Expected "query" param to be a string/, "«query» tiene que ser un texto."],
  [/^Expected "variables" param to be empty or an object/, "«variables» tiene que ser un objeto."],
  [/^Expected "extensions" param to be empty or an object/, "«extensions» tiene que ser un objeto."],
  [/^Unexpected parameter "(\w+)" in the request body\./, "El cuerpo del pedido trae un parámetro que no conocemos."],
  [/^Batching is (?:not supported|limited)/, "No aceptamos varias operaciones en un mismo pedido."],
  [/^Request body too large|^Content-Length header is invalid/, "El pedido es demasiado grande."],
  [/^(?:Missing multipart|Multipart form field|POST body sent invalid multipart)/, "El formulario multipart no es válido (operations y map)."],
  [/^Invalid "params" in the request body/, "El cuerpo del pedido no es válido."],
];
const REQUEST_CODES = new Set(["BAD_REQUEST", "OPERATION_RESOLUTION_FAILURE"]);

function requestError(error: ErrorLike): GraphQLError | null {
  const code = error.extensions?.code;
  if (typeof code !== "string" || !REQUEST_CODES.has(code)) return null;
  const rule = REQUEST_RULES.find(([pattern]) => pattern.test(error.message));
  if (!rule) return null;
  // The operation to run cannot be chosen: a request error of a well-formed request. Anything else here is a request
  // that is not well-formed (not JSON, not an object, unknown parameters…): 4xx whatever the Accept header.
  const { spec: _, ...http } = (error.extensions?.http ?? { status: 400 }) as { status?: number; spec?: boolean };
  return new GraphQLError(rule[1], { extensions: { code, http: code === "OPERATION_RESOLUTION_FAILURE" ? documentError() : http } });
}

/** A query that does not parse: GRAPHQL_PARSE_FAILED, 400, where it broke. */
function syntaxError(error: ErrorLike): GraphQLError | null {
  if (!/^Syntax Error: /.test(error.message)) return null;
  const at = error.locations?.[0];
  return new GraphQLError(`La consulta tiene un error de sintaxis${at ? ` (línea ${at.line}, columna ${at.column})` : ""}.`, {
    source: error.source,
    positions: error.positions,
    extensions: { code: "GRAPHQL_PARSE_FAILED", http: documentError() },
  });
}

/**
 * The client-error version of an error that is the client's doing: a query
 * over the limits (GRAPHQL_VALIDATION_FAILED, 400), a query that does not
 * parse (GRAPHQL_PARSE_FAILED, 400), a request yoga cannot read
 * (BAD_REQUEST…) or a bad variable (BAD_USER_INPUT). Validation errors are
 * not thrown, so they do not come here: see `validationError`.
 * Null for anything else.
 */
export function clientError(error: ErrorLike): GraphQLError | null {
  const limit = TOKEN_LIMIT.test(error.message) ? LIMIT_MESSAGES.tokens : LIMITS.get(error.message.replace(ARMOR_PREFIX, ""));
  // The limits are validation rules of ours (Armor), so a refused query is a document error like any other.
  if (limit) return new GraphQLError(limit, { extensions: { code: "GRAPHQL_VALIDATION_FAILED", http: documentError() } });
  return variableError(error) ?? syntaxError(error) ?? requestError(error);
}
