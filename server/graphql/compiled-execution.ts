import {
  Kind,
  locatedError,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import type { Plugin } from "graphql-yoga";
import { withoutStackTrace } from "#server/errors";

/**
 * Executes an operation with a function compiled for it (graphql-jit) instead of walking the document and
 * coercing the variables generically on every request (decision 138): in the on-sale's profile the
 * standard executor was ~14 % of the app's CPU, half of it copying and coercing createOrder's input.
 *
 * - Compiled on a document's second execution, once per parsed document and operation name (yoga's parse
 *   cache hands the same DocumentNode for the same query text): a query sent once costs no compilation (about
 *   1 ms for createOrder's, against ~0.1 ms saved on each run). The 200 documents used last keep their compiled
 *   functions (~20 KiB each); an integrator's many one-off queries do not grow the process.
 * - Only a request whose variables fit takes the compiled path. When they do not, the compiled query answers
 *   without data and the request is executed again by the standard executor, whose messages (the field's path,
 *   the scalars' own words) are the ones our Spanish client errors read (./client-errors.ts). Nothing has run
 *   when variables fail, so nothing runs twice.
 * - Errors come out as the standard executor's do: located at their fields (`locations`), with the error the
 *   resolver threw as `originalError`, so masking (./yoga.ts `maskError`) and clients see no difference.
 */
export function compiledExecution(schema: GraphQLSchema, { compileOnRun = 2, maxDocuments = 200 } = {}): Plugin {
  // Most recently used last: a Map keeps insertion order, so the first key is the one to drop.
  const plans = new Map<DocumentNode, Map<string, Plan>>();
  function planFor(document: DocumentNode, operationName: string | null | undefined): Plan {
    let byName = plans.get(document);
    if (byName) plans.delete(document);
    else byName = new Map();
    plans.set(document, byName);
    if (plans.size > maxDocuments) plans.delete(plans.keys().next().value!);
    const key = operationName ?? "";
    let plan = byName.get(key);
    if (!plan) byName.set(key, (plan = { runs: 0, query: undefined }));
    if (plan.query === undefined && ++plan.runs >= compileOnRun) {
      const compiled = compileQuery(schema, document, operationName ?? undefined, { disablingCapturingStackErrors: true });
      plan.query = isCompiledQuery(compiled) ? compiled : null;
    }
    return plan;
  }
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (args.schema !== schema) return;
      const query = planFor(args.document, args.operationName).query;
      if (!query) return;
      setExecuteFn((executeArgs) => {
        const finish = (result: ExecutionResult): ExecutionResult | ReturnType<typeof executeFn> => {
          if (!("data" in result)) return executeFn(executeArgs);
          if (!result.errors?.length) return result;
          return { ...result, errors: result.errors.map((error) => located(error, executeArgs.document, executeArgs.operationName)) };
        };
        const result = query.query(executeArgs.rootValue, executeArgs.contextValue, executeArgs.variableValues);
        return isPromise(result) ? result.then(finish) : finish(result);
      });
    },
  };
}

interface Plan {
  runs: number;
  /** undefined: not compiled yet; null: graphql-jit cannot compile it (the standard executor runs it). */
  query: CompiledQuery | null | undefined;
}

/** A compiled query's error as the standard executor makes it: graphql's GraphQLError with the field's nodes. */
function located(error: GraphQLError, document: DocumentNode, operationName: string | null | undefined): GraphQLError {
  const path = error.path ?? [];
  const nodes = fieldNodesAt(document, operationName, path);
  const original = error.originalError ?? new Error(error.message);
  // It takes the original error's stack: the one a new error records would be thrown away.
  return withoutStackTrace(() => locatedError(original, nodes.length ? nodes : undefined, path));
}

/** The field nodes that answer a response path (aliases, fragments and inline fragments followed). */
function fieldNodesAt(document: DocumentNode, operationName: string | null | undefined, path: readonly (string | number)[]): FieldNode[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    else if (definition.kind === Kind.OPERATION_DEFINITION && (!operationName || definition.name?.value === operationName)) operation ??= definition;
  }
  if (!operation) return [];
  let selectionSets: SelectionSetNode[] = [operation.selectionSet];
  let fields: FieldNode[] = [];
  for (const key of path) {
    if (typeof key === "number") continue;
    fields = [];
    const visit = (set: SelectionSetNode) => {
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          if ((selection.alias ?? selection.name).value === key) fields.push(selection);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
        else {
          const fragment = fragments.get(selection.name.value);
          if (fragment) visit(fragment.selectionSet);
        }
      }
    };
    for (const set of selectionSets) visit(set);
    selectionSets = fields.flatMap((field) => (field.selectionSet ? [field.selectionSet] : []));
  }
  return fields;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as Promise<T>)?.then === "function";
}
