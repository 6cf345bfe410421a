import { useForm } from "@conform-to/react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CheckoutCustomField } from "#common/checkout";
import { ErrorSummary } from "./ErrorSummary";
import { MoneyLines } from "./MoneyLines";
import { PayerInfoFields, payerFieldLabel } from "./PayerInfoFields";
import { formFieldName, payerInfoSchema } from "./schema";

const FIELDS: CheckoutCustomField[] = [
  { id: "f-talle", label: "Talle", kind: "select", options: ["S", "M"], required: true },
  { id: "f-nacimiento", label: "Nacimiento", kind: "date", options: [], required: false },
];

function Form({ holders }: { holders: number }) {
  const [, fields] = useForm<Record<string, unknown>>({
    id: "payer-info",
    defaultValue: { firstName: "Ana", documentType: "dni", attendees: Array.from({ length: holders }, () => ({ documentType: "dni" })) } as never,
  });
  return <PayerInfoFields fields={fields} customFields={FIELDS} holderLabels={Array.from({ length: holders }, () => "General")} />;
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
        "attendees.1.firstName: Este campo es requerido",
        "customFields.f-talle: Este campo es requerido",
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
  it("reads in the order the money is computed: subtotal, discount, fee on what is left, total", () => {
    const html = renderToString(<MoneyLines subtotal="$ 24.000,00" discount="$ 4.800,00" serviceFee="$ 1.920,00" serviceFeeLabel="10 %" total="$ 21.120,00" />);
    const order = [...html.matchAll(/data-line="([\w-]+)"/g)].map((m) => m[1]);
    expect(order).toEqual(["subtotal", "discount", "service-fee", "total"]);
    expect(html).toContain("−$ 4.800,00");
    expect(html).toContain("sobre el precio con descuento");
  });

  it("leaves out the discount without a coupon and the fee when the event charges none", () => {
    const html = renderToString(<MoneyLines subtotal="$ 10,00" serviceFee={null} total="$ 10,00" />);
    expect([...html.matchAll(/data-line="([\w-]+)"/g)].map((m) => m[1])).toEqual(["subtotal", "total"]);
  });
});

describe("ErrorSummary", () => {
  it("says the spec's message (typo fixed) and links each field", () => {
    const html = renderToString(
      <ErrorSummary errors={[{ fieldId: "payer-info-email", label: payerFieldLabel("email", []), message: "Este campo debe ser un email válido" }]} />,
    );
    expect(html).toContain("Upppsss... parece que te faltaron cargar algunos datos.");
    expect(html).toMatch(/<a href="#payer-info-email"[^>]*>Email<!-- -->: <!-- -->Este campo debe ser un email válido<\/a>/);
    expect(html).toContain('tabindex="-1"');
  });

  it("names holders' and custom fields' inputs", () => {
    expect(payerFieldLabel("attendees[1].documentNumber", [])).toBe("Número de documento (entrada 2)");
    expect(payerFieldLabel("customFields.f-talle", FIELDS)).toBe("Talle");
    expect(renderToString(<ErrorSummary errors={[]} />)).toBe("");
  });
});
