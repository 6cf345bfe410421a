import { getZodConstraint } from "@conform-to/zod/v4";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { EMAIL_RULES, LOGIN_RULES, REGISTER_RULES } from "./light-rules";
import { emailFormSchema, loginFormSchema, registerFormSchema } from "./schemas";
import { fieldError, getLightFormProps, getLightInputProps, useLightAccountForm, type AccountFormResult, type FormRules } from "./useLightAccountForm";

/** The schema's own first message for a field's value, or null when that field takes it. */
function schemaMessage(schema: z.ZodObject, name: string, value: string): string | null {
  const result = (schema.shape as Record<string, z.ZodType>)[name].safeParse(value);
  return result.success ? null : result.error.issues[0].message;
}

// What people type into these fields, right and wrong: each one must get the same answer from both.
const SAMPLES = ["", " ", "Ana", " Ana", "Ana ", "Ana María", "Ana  María", "José", "Jose\u0301", "Ana3", "O'Brien", "ana@example.com", "ana@sin-dominio", "ana @example.com", "ANA@EXAMPLE.COM", "a@b", "corta", "1234567", "12345678", "una clave larga", " clave larga"];

describe("the sign-up and sign-in forms without zod in the browser (decision 181)", () => {
  it.each([
    ["registro", REGISTER_RULES, registerFormSchema],
    ["iniciar sesión", LOGIN_RULES, loginFormSchema],
    ["enlace por email", EMAIL_RULES, emailFormSchema],
  ] as [string, FormRules, z.ZodObject][])("%s: every field answers each value as its zod schema does, and the same fields are required", (_name, rules, schema) => {
    expect(Object.keys(rules).sort()).toEqual(Object.keys(schema.shape).sort());
    const required = Object.entries(getZodConstraint(schema)).flatMap(([name, c]) => (c.required ? [name] : []));
    expect(Object.keys(rules).sort()).toEqual(required.sort());
    for (const [name, rule] of Object.entries(rules)) {
      for (const value of SAMPLES) expect(fieldError(rule, value), `${name}: ${JSON.stringify(value)}`).toBe(schemaMessage(schema, name, value));
    }
  });

  it("shows the action's answer next to each field and what was typed again (never the password), without the browser's bubbles", () => {
    function Form({ lastResult }: { lastResult: AccountFormResult }) {
      const [form, fields] = useLightAccountForm({ id: "registro", rules: REGISTER_RULES, lastResult });
      return (
        <form {...getLightFormProps(form)}>
          <p id={form.errorId}>{form.errors?.[0]}</p>
          <input {...getLightInputProps(fields.email, { type: "email" })} />
          <span>{fields.email.errors?.[0]}</span>
          <input {...getLightInputProps(fields.password, { type: "password" })} />
        </form>
      );
    }
    const html = renderToString(
      <Form lastResult={{ status: "error", initialValue: { email: "ana@example.com", password: "secreta123" }, error: { email: ["Ya existe una cuenta con ese email"], "": ["Revisá los datos"] } }} />,
    );
    expect(html).toContain('novalidate=""');
    expect(html).toContain('aria-describedby="registro-form-error"');
    expect(html).toMatch(/<input id="registro-email" name="email" type="email" required="" value="ana@example.com"\/>/);
    expect(html).toContain("Ya existe una cuenta con ese email");
    expect(html).toContain("Revisá los datos");
    expect(html).toMatch(/<input id="registro-password" name="password" type="password" required="" minLength="8"\/>/i);
    expect(html).not.toContain("secreta123");
  });
});
