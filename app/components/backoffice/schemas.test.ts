import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { ticketTypeInput } from "#common/events";
import { ticketTypeFormSchema } from "./schemas";

function browserParse(fields: Record<string, string>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  return parseWithZod(formData, { schema: ticketTypeFormSchema });
}

const errorsOf = (submission: ReturnType<typeof browserParse>) => (submission.status === "error" ? submission.error : null);

describe("the ticket type form's schema in the browser (Conform)", () => {
  it("reads prices and stock as Argentines write them, as the server does", () => {
    for (const [price, centavos] of [["9.500", 950_000], ["1.500", 150_000], ["27.500,50", 2_750_050], ["9500", 950_000], ["0", 0]] as const) {
      const submission = browserParse({ name: "General", price, stock: "50" });
      expect(submission.status, price).toBe("success");
      expect(submission.status === "success" && submission.value.price, price).toBe(centavos);
      expect(ticketTypeInput.parse({ name: "General", price, stock: "50" }).price, price).toBe(centavos);
    }
    expect(errorsOf(browserParse({ name: "General", price: "mil", stock: "50" }))).toEqual({ price: ["Ingresá un precio válido (por ejemplo 1500 o 1.500,50)"] });
    expect(errorsOf(browserParse({ name: "General", price: "100", stock: "1.000" }))).toEqual({ stock: ["Ingresá un número entero"] });
  });
});
