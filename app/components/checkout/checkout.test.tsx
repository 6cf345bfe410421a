import { useForm } from "@conform-to/react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CheckoutCustomField } from "#common/checkout";
import { PayerInfoFields } from "./PayerInfoFields";
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
    expect(html).toMatch(/type="date"[^>]*name="customFields.f-nacimiento"|name="customFields.f-nacimiento"[^>]*type="date"/);
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

  it("maps createOrder's field keys to the form's input names", () => {
    expect(formFieldName("payer.documentNumber")).toBe("documentNumber");
    expect(formFieldName("attendees.3.email")).toBe("attendees[3].email");
    expect(formFieldName("customFields.abc")).toBe("customFields.abc");
  });
});
