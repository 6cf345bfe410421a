import { createSchema, createYoga, type Plugin } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { cachedValidation } from "./yoga";

/**
 * A document is validated once (decision 245): from the second request on, a valid one skips envelop's validation
 * step altogether, and an invalid one still gets the same errors every time. A plugin before ours counts the
 * times the step runs, as envelop calls each `onValidate` hook once per step.
 */
function serverCountingValidations() {
  let steps = 0;
  const counting: Plugin = { onValidate: () => void steps++ };
  const yoga = createYoga({
    schema: createSchema({ typeDefs: "type Query { hello(name: String!): String! }", resolvers: { Query: { hello: (_: unknown, { name }: { name: string }) => `hola ${name}` } } }),
    plugins: [counting, cachedValidation()],
    parserAndValidationCache: { validationCache: false },
    logging: false,
  });
  const ask = async (query: string) => {
    const response = await yoga.fetch("http://localhost/graphql", { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify({ query }) });
    return response.json() as Promise<{ data?: unknown; errors?: { message: string }[] }>;
  };
  return { ask, steps: () => steps };
}

describe("GraphQL validation runs once per document", () => {
  it("a valid document: validated on its first request only, answered the same every time", async () => {
    const server = serverCountingValidations();
    for (let i = 0; i < 3; i++) expect(await server.ask(`{ hello(name: "Ana") }`)).toEqual({ data: { hello: "hola Ana" } });
    expect(server.steps()).toBe(1);
    expect(await server.ask(`{ other: hello(name: "Leo") }`)).toEqual({ data: { other: "hola Leo" } });
    expect(server.steps()).toBe(2);
  });

  it("an invalid document: the same errors on every request, through the whole step", async () => {
    const server = serverCountingValidations();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await server.ask(`{ hello }`));
    expect(answers[0].data).toBeUndefined();
    expect(answers[0].errors?.length).toBe(1);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(server.steps()).toBe(3);
  });
});
