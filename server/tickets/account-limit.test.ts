import { describe, expect, it } from "vitest";
import { ACCOUNT_LIMIT_REACHED, AccountLimitReached, accountLimitMessage, accountRequired, ACCOUNT_REQUIRED } from "./account-limit";

describe("per-account limit messages (decision 203)", () => {
  it("say the limit, what the person holds and what is left, in Spanish", () => {
    expect(accountLimitMessage(4, 0)).toBe("Este evento permite hasta 4 entradas por cuenta: elegí hasta 4.");
    expect(accountLimitMessage(1, 0)).toBe("Este evento permite hasta 1 entrada por cuenta: elegí 1.");
    expect(accountLimitMessage(4, 3)).toBe("Este evento permite hasta 4 entradas por cuenta y ya tenés 3: podés sumar 1 más.");
    expect(accountLimitMessage(6, 2)).toBe("Este evento permite hasta 6 entradas por cuenta y ya tenés 2: podés sumar hasta 4 más.");
    expect(accountLimitMessage(4, 4)).toBe("Este evento permite hasta 4 entradas por cuenta y ya tenés 4: no podés sumar más.");
    expect(accountLimitMessage(2, 2, "recipient")).toBe("Esa persona ya tiene 2 entradas de este evento, el máximo por cuenta: no puede recibir más.");
    expect(accountLimitMessage(3, 1, "recipient")).toBe("Esa persona ya tiene 1 entrada de este evento y el máximo por cuenta es 3.");
  });

  it("are typed errors with a reason for GraphQL and the message on the field asked for", () => {
    const error = new AccountLimitReached(2, 2, { who: "recipient", field: "email" });
    expect(error).toMatchObject({ code: "CONFLICT", reason: ACCOUNT_LIMIT_REACHED, limit: 2, held: 2, fieldErrors: { email: [accountLimitMessage(2, 2, "recipient")] } });
    expect(accountRequired(4)).toMatchObject({ code: "UNAUTHENTICATED", reason: ACCOUNT_REQUIRED, message: "Este evento permite hasta 4 entradas por cuenta: iniciá sesión para comprar." });
  });
});
