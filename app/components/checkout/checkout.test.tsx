import { getZodConstraint } from "@conform-to/zod/v4";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CheckoutCustomField } from "#common/checkout";
import { ErrorSummary, summaryHeading } from "./ErrorSummary";
import { MoneyLines } from "./MoneyLines";
import { OrderProblems } from "./OrderProblems";
import { PayerInfoFields, payerFieldLabel } from "./PayerInfoFields";
import { formFieldName, payerInfoSchema } from "./schema";
import { errorsFromResult, getFormProps, loadCustomFieldRule, PAYER_REQUIRED_FIELDS, payerFieldError, usePayerForm, valueAt, type CheckedControl, type PayerFormResult } from "./usePayerForm";

const FIELDS: CheckoutCustomField[] = [
  { id: "f-talle", label: "Talle", kind: "select", options: ["S", "M"], required: true },
  { id: "f-nacimiento", label: "Nacimiento", kind: "date", options: [], required: false },
];

function Form({ holders, lastResult }: { holders: number; lastResult?: PayerFormResult }) {
  const [form, fields] = usePayerForm({
    id: "payer-info",
    lastResult,
    defaultValue: { firstName: "Ana", documentType: "dni", attendees: holders ? Array.from({ length: holders }, () => ({ documentType: "dni" })) : undefined },
    customFields: FIELDS,
  });
  return (
    <form {...getFormProps(form)}>
      <PayerInfoFields fields={fields} customFields={FIELDS} holderLabels={Array.from({ length: holders }, () => "General")} />
    </form>
  );
}

/** An input as the browser's constraint validation sees it. */
function control(name: string, value: string, validity: Partial<CheckedControl["validity"]> = {}, type = "text"): CheckedControl {
  return { name, type, value, validity: { valueMissing: false, typeMismatch: false, ...validity } };
}

describe("PayerInfoFields", () => {
  it("renders the payer, one row per holder and the custom fields with the names the action reads", () => {
    const html = renderToString(<Form holders={2} />);
    for (const name of ["firstName", "email", "documentType", "phoneNumber", "couponCode", "attendees[0].firstName", "attendees[1].documentNumber", "attendees[1].email", "customFields.f-talle", "customFields.f-nacimiento"]) {
      expect(html).toContain(`name="${name}"`);
    }
    expect(html).toContain('value="Ana"');
    expect(html).toContain("Entrada 2: General");
    expect(html).toContain("Nacimiento (opcional)");
    // The date answer is our own control (no native date input, which says mm/dd/yyyy in an English browser).
    const birth = html.match(/<input [^>]*name="customFields.f-nacimiento"[^>]*>/)?.[0] ?? "";
    expect(birth).toContain('type="text"');
    expect(birth).toContain('inputMode="numeric"');
    expect(birth).toContain('placeholder="dd/mm/aaaa"');
    expect(html).not.toMatch(/type="date"/);
    expect(html).toContain("por ejemplo 20/12/2026");
  });

  it("asks no holders when the event does not", () => {
    const html = renderToString(<Form holders={0} />);
    expect(html).not.toContain("attendees[");
  });

  it("marks what is required natively and never lets the browser's own bubbles replace the Spanish messages", () => {
    const html = renderToString(<Form holders={1} />);
    expect(html).toMatch(/<form[^>]*novalidate=""/);
    expect(html).toMatch(/<input[^>]*name="firstName"[^>]*required=""/);
    expect(html).toMatch(/<input[^>]*name="attendees\[0\].documentNumber"[^>]*required=""/);
    expect(html).toMatch(/<input[^>]*type="email"[^>]*name="attendees\[0\].email"|<input[^>]*name="attendees\[0\].email"[^>]*type="email"/);
    expect(html).not.toMatch(/<input[^>]*name="attendees\[0\].email"[^>]*required=""/);
    expect(html).not.toMatch(/<input[^>]*name="couponCode"[^>]*required=""/);
    expect(html).toMatch(/<select[^>]*name="customFields.f-talle"[^>]*required=""/);
  });

  it("shows the server's answer: its messages next to the fields and what was typed", () => {
    const lastResult: PayerFormResult = {
      status: "error",
      initialValue: { firstName: "Valen", email: "valen@", attendees: [{ firstName: "Beto", documentType: "dni" }] },
      error: { email: ["Este campo debe ser un email válido"], "attendees[0].lastName": ["Este campo es obligatorio"], "": ["Se agotó General."] },
    };
    const html = renderToString(<Form holders={1} lastResult={lastResult} />);
    expect(html).toContain('value="Valen"');
    expect(html).toContain('value="Beto"');
    expect(html).toMatch(/id="payer-info-email-error"[^>]*>Este campo debe ser un email válido</);
    expect(html).toMatch(/id="payer-info-attendees\[0\].lastName-error"[^>]*>Este campo es obligatorio</);
    expect(html).toMatch(/<input[^>]*name="email"[^>]*aria-invalid="true"/);
  });
});

describe("the payer form's check in the browser", () => {
  it("says the spec's words for what the inputs' native constraints find", () => {
    expect(payerFieldError(control("firstName", "", { valueMissing: true }), [])).toBe("Este campo es obligatorio");
    expect(payerFieldError(control("email", "valen@", { typeMismatch: true }, "email"), [])).toBe("Este campo debe ser un email válido");
    expect(payerFieldError(control("documentNumber", "12"), [])).toBeNull();
  });

  it("checks custom fields with the server's own rule, once it is loaded after first paint", async () => {
    expect(payerFieldError(control("customFields.f-talle", "", { valueMissing: true }), FIELDS)).toBe("Este campo es obligatorio");
    await loadCustomFieldRule();
    expect(payerFieldError(control("customFields.f-talle", ""), FIELDS)).toBe("Este campo es obligatorio");
    expect(payerFieldError(control("customFields.f-talle", "XL"), FIELDS)).toBe("Elegí una de las opciones");
    expect(payerFieldError(control("customFields.f-nacimiento", ""), FIELDS)).toBeNull();
    expect(payerFieldError(control("customFields.f-nacimiento", "1990-02-30"), FIELDS)).toBe("Ingresá una fecha válida");
  });

  it("requires natively exactly what the schema requires", () => {
    const constraint = getZodConstraint(payerInfoSchema({ customFields: [], holders: 1 }));
    const required = Object.entries(constraint)
      .filter(([name, c]) => c.required && !c.multiple && name !== "attendees[]")
      .map(([name]) => name)
      .sort();
    expect([...PAYER_REQUIRED_FIELDS].sort()).toEqual(required);
  });

  it("reads the action's answer and nested values by input name", () => {
    expect(errorsFromResult({ error: { email: ["x"], phoneNumber: null, "": [] } })).toEqual({ email: ["x"] });
    expect(errorsFromResult(undefined)).toEqual({});
    const value = { attendees: [{}, { email: "b@x.com" }], customFields: { "f-1": "M" } };
    expect(valueAt(value, "attendees[1].email")).toBe("b@x.com");
    expect(valueAt(value, "customFields.f-1")).toBe("M");
    expect(valueAt(value, "attendees[2].email")).toBeUndefined();
  });
});

describe("payerInfoSchema", () => {
  it("checks holders row by row, even the ones left empty, and the custom fields", () => {
    const schema = payerInfoSchema({ customFields: FIELDS, holders: 2 });
    const result = schema.safeParse({
      firstName: "Ana",
      lastName: "Paz",
      email: "ana@example.com",
      documentType: "dni",
      documentNumber: "30123456",
      phoneNumber: "+54 11 5555-1234",
      attendees: [{ firstName: "Beto", lastName: "Sosa", documentType: "dni", documentNumber: "31222333" }],
      customFields: { "f-nacimiento": "1990-13-01" },
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        "attendees.1.firstName: Este campo es obligatorio",
        "customFields.f-talle: Este campo es obligatorio",
        "customFields.f-nacimiento: Ingresá una fecha válida",
      ]),
    );
  });

  it("takes a date answer typed as dd/mm/aaaa (or ISO) and refuses one outside 1900–2099", () => {
    const schema = payerInfoSchema({ customFields: FIELDS, holders: 0 });
    const base = { firstName: "Ana", lastName: "Paz", email: "ana@example.com", documentType: "dni", documentNumber: "30123456", phoneNumber: "+54 11 5555-1234" };
    const answer = (date: string) => schema.safeParse({ ...base, customFields: { "f-talle": "S", "f-nacimiento": date } });
    expect(answer("07/05/1990").success).toBe(true);
    expect(answer("1990-05-07").success).toBe(true);
    expect(answer("07/05/1850").error?.issues.map((i) => i.message)).toEqual(["Elegí una fecha entre el 01/01/1900 y el 31/12/2099"]);
  });

  it("maps createOrder's field keys to the form's input names", () => {
    expect(formFieldName("payer.documentNumber")).toBe("documentNumber");
    expect(formFieldName("attendees.3.email")).toBe("attendees[3].email");
    expect(formFieldName("customFields.abc")).toBe("customFields.abc");
  });
});

describe("MoneyLines", () => {
  it("shows the final price first, the price without national taxes beside it, then subtotal, discount and fee on what is left", () => {
    const html = renderToString(
      <MoneyLines subtotal="$ 24.000,00" discount="$ 4.800,00" serviceFee="$ 1.920,00" serviceFeeLabel="10 %" total="$ 21.120,00" withoutNationalTaxes="$ 20.786,78" />,
    );
    const order = [...html.matchAll(/data-line="([\w-]+)"/g)].map((m) => m[1]);
    expect(order).toEqual(["total", "without-national-taxes", "subtotal", "discount", "service-fee"]);
    expect(html.match(/\$\s[\d.,]+/)?.[0]).toBe("$ 21.120,00");
    expect(html).toContain("Precio sin impuestos nacionales");
    expect(html).toContain("−$ 4.800,00");
    expect(html).toContain("sobre el precio con descuento");
  });

  it("leaves out the discount without a coupon and the fee when the event charges none", () => {
    const html = renderToString(<MoneyLines subtotal="$ 10,00" serviceFee={null} total="$ 10,00" />);
    expect([...html.matchAll(/data-line="([\w-]+)"/g)].map((m) => m[1])).toEqual(["total", "subtotal"]);
  });
});

describe("ErrorSummary", () => {
  it("says the spec's message (corrected) when something is missing, and links each field", () => {
    const html = renderToString(
      <ErrorSummary
        errors={[
          { fieldId: "payer-info-firstName", label: payerFieldLabel("firstName", []), message: "Este campo es obligatorio" },
          { fieldId: "payer-info-email", label: payerFieldLabel("email", []), message: "Este campo debe ser un email válido" },
        ]}
      />,
    );
    expect(html).toContain("Upppsss... parece que te faltó cargar algunos datos.");
    expect(html).toMatch(/<a href="#payer-info-email"[^>]*>Email<!-- -->: <!-- -->Este campo debe ser un email válido<\/a>/);
    expect(html).toContain('tabindex="-1"');
  });

  it("heads the list with what fits: missing data, only the coupon, other fields, or the purchase", () => {
    const email = { fieldId: "payer-info-email", message: "Este campo debe ser un email válido" };
    const missing = { fieldId: "payer-info-lastName", message: "Este campo es obligatorio" };
    const coupon = { fieldId: "payer-info-couponCode", message: "Ese cupón no existe para este evento. Revisá cómo lo escribiste." };
    expect(summaryHeading([email, missing, coupon])).toBe("Upppsss... parece que te faltó cargar algunos datos.");
    expect(summaryHeading([coupon])).toBe("Revisá el código de cupón");
    expect(summaryHeading([email, coupon])).toBe("Revisá estos datos antes de seguir");
    expect(summaryHeading([])).toBe("No pudimos seguir con tu compra");
    const html = renderToString(<ErrorSummary errors={[{ ...coupon, label: "Código de cupón" }]} />);
    expect(html).not.toContain("faltó cargar");
  });

  it("names holders' and custom fields' inputs", () => {
    expect(payerFieldLabel("attendees[1].documentNumber", [])).toBe("Número de documento (entrada 2)");
    expect(payerFieldLabel("customFields.f-talle", FIELDS)).toBe("Talle");
    expect(renderToString(<ErrorSummary errors={[]} />)).toBe("");
  });
});

describe("OrderProblems", () => {
  it("announces each problem with the order as an alert, and nothing when there are none", () => {
    const html = renderToString(<OrderProblems problems={["Se agotó General", "Sacamos el cupón PAUSADO: Ese cupón está pausado por ahora."]} />);
    expect(html).toMatch(/^<ul role="alert"[^>]*><li>Se agotó General<\/li><li>Sacamos el cupón PAUSADO: Ese cupón está pausado por ahora.<\/li><\/ul>$/);
    expect(renderToString(<OrderProblems problems={[]} />)).toBe("");
  });
});
