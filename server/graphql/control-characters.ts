import type { ASTNode, GraphQLError, ValidationRule } from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import { CONTROL_CHARACTER_MESSAGE, findControlCharacters, hasControlCharacters } from "#common/control-characters";

/** PostgreSQL's own refusal of such text (NUL: 22021; 22P05 for characters the encoding lacks): the last net, if a door missed one. */
export function isUnstorableText(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "22021" || code === "22P05";
}

/**
 * GraphQL's door for the control-character rule (common/control-characters):
 * a string variable or a string literal in the query with NUL or another
 * control character is refused before any resolver runs, as BAD_USER_INPUT
 * naming the field. Line breaks pass here; the domain's field schemas refuse
 * them in single-line fields.
 */
export function controlCharacterError(field: string, nodes?: ASTNode[]): GraphQLError {
  const message = `Revisá «${field}»: ${CONTROL_CHARACTER_MESSAGE.replace(/^Este campo /, "")}.`;
  return createGraphQLError(message, { nodes, extensions: { code: "BAD_USER_INPUT", field, fieldErrors: { [field]: [CONTROL_CHARACTER_MESSAGE] } } });
}

/** String literals in the document (`event(slug: "ab\u0000c")`): the argument and input-field names make the path. */
const literalsRule: ValidationRule = (context) => ({
  StringValue(node, _key, parent, _path, ancestors) {
    if (!hasControlCharacters(node.value, { multiLine: true })) return;
    // `ancestors` stops before the parent (the Argument or ObjectField holding this string).
    const names = [...ancestors, parent].flatMap((a) => (a && "kind" in a && (a.kind === "Argument" || a.kind === "ObjectField") ? [a.name.value] : []));
    context.reportError(controlCharacterError(names.join(".") || "query", [node]));
  },
});

export const refuseControlCharacters: Plugin = {
  onParams({ params, setResult }) {
    const field = findControlCharacters(params.variables ?? {});
    if (field !== null) setResult({ errors: [controlCharacterError(field)] });
  },
  onValidate({ addValidationRule }) {
    addValidationRule(literalsRule);
  },
};
