import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  DOCUMENT_TYPES,
  MESSAGES,
  PATTERNS,
  PROVINCES,
  documentTypeSchema,
  emailSchema,
  identificationNumberSchema,
  isValidPixelId,
  nameSchema,
  nicknameSchema,
  optional,
  passwordSchema,
  phoneSchema,
  phoneWithAreaCodeSchema,
  provinceSchema,
  requiredText,
} from "./validation";

/** What a form shows under the field: the messages, or the value it keeps. */
function check(schema: z.ZodType, value: unknown): { ok: true; value: unknown } | { ok: false; messages: string[] } {
  const result = schema.safeParse(value);
  return result.success ? { ok: true, value: result.data } : { ok: false, messages: result.error.issues.map((i) => i.message) };
}
const accepted = (value: unknown) => ({ ok: true, value });
const refused = (...messages: string[]) => ({ ok: false, messages });

describe("the spec's field messages, spelling corrected", () => {
  it("keeps every field message of the spec, with \"contener\" and \"válido\" spelled right", () => {
    expect(MESSAGES.trim).toBe("Este campo no puede contener espacios al inicio o al final");
    expect(MESSAGES.noSpaces).toBe("Este campo no puede contener espacios");
    expect(MESSAGES.email).toBe("Este campo debe ser un email válido");
    expect(MESSAGES.phone).toBe("Ingresá un número de teléfono válido");
    expect(MESSAGES.document).toBe("Ingresá un número de documento válido");
    expect(MESSAGES.required).toBe("Este campo es obligatorio");
    expect(MESSAGES.minLength(8)).toBe("Este campo debe tener al menos 8 caracteres");
  });
});

describe("email", () => {
  it.each(["juan@example.com", "maria.jose+entradas@sub.example.com.ar", "a@b.co"])("accepts %s", (email) => {
    expect(check(emailSchema, email)).toEqual(accepted(email));
  });

  it("keeps emails in lower case, so Juan@Example.com and juan@example.com are one account", () => {
    expect(check(emailSchema, "Juan.Perez@Example.COM")).toEqual(accepted("juan.perez@example.com"));
  });

  it.each(["juan", "juan@example", "juan@example.c", "juan@example.c0m", "@example.com", "juan@@example.com", "juan@.com"])(
    "refuses %s with the email message",
    (email) => {
      expect(check(emailSchema, email)).toEqual(refused("Este campo debe ser un email válido"));
    },
  );

  it("refuses spaces anywhere with the no-spaces message", () => {
    expect(check(emailSchema, "juan perez@example.com")).toEqual(refused("Este campo no puede contener espacios"));
    expect(check(emailSchema, " juan@example.com")).toEqual(refused("Este campo no puede contener espacios"));
  });

  it("says only 'required' when empty or missing", () => {
    expect(check(emailSchema, "")).toEqual(refused("Este campo es obligatorio"));
    expect(check(emailSchema, undefined)).toEqual(refused("Este campo es obligatorio"));
  });
});

describe("name", () => {
  it.each(["José María", "Ñandú", "Müller", "Núñez", "Ana  Lía", "Çelik"])("accepts %s", (name) => {
    expect(check(nameSchema, name)).toEqual(accepted(name));
  });

  it("accepts an accent typed as a combining mark and stores the composed letter", () => {
    const decomposed = "Jose\u0301";
    const result = check(nameSchema, decomposed);
    expect(result).toEqual(accepted("José"));
    expect((result as { value: string }).value).toHaveLength(4);
  });

  it.each([" Ana", "Ana ", " Ana "])("refuses %j with the trim message only", (name) => {
    expect(check(nameSchema, name)).toEqual(refused("Este campo no puede contener espacios al inicio o al final"));
  });

  it.each(["Juan2", "Ana_María", "R2D2", "Jean-Luc", "O'Brien", "Ana."])("refuses %s (letters and inner spaces only)", (name) => {
    expect(check(nameSchema, name)).toEqual(refused(MESSAGES.name));
  });

  it("says only 'required' when empty", () => {
    expect(check(nameSchema, "")).toEqual(refused("Este campo es obligatorio"));
    expect(check(nameSchema, null)).toEqual(refused("Este campo es obligatorio"));
  });
});

describe("phone (lenient)", () => {
  it.each(["+54 9 11 5555-1234", "+5491155551234", "11 5555-1234", "(011) 4555-1234", "1155551234", "0351.455.1234"])(
    "accepts %s",
    (phone) => {
      expect(check(phoneSchema, phone)).toEqual(accepted(phone));
    },
  );

  it.each(["1234", "123456", "abc", "11-5555-abcd", "+54 9 11 5555 1234 5678 9012", "+", "++5491155551234"])(
    "refuses %s",
    (phone) => {
      expect(check(phoneSchema, phone)).toEqual(refused("Ingresá un número de teléfono válido"));
    },
  );

  it("says only 'required' when empty and the trim message for edge spaces", () => {
    expect(check(phoneSchema, "")).toEqual(refused("Este campo es obligatorio"));
    expect(check(phoneSchema, " 1155551234")).toEqual(refused(MESSAGES.trim));
  });
});

describe("phone with area code", () => {
  it.each(["+54 9 11 5555-1234", "+5491155551234", "+1 (212) 555-0100", "+598 94 123 456"])("accepts %s", (phone) => {
    expect(check(phoneWithAreaCodeSchema, phone)).toEqual(accepted(phone));
  });

  it.each(["1234", "1155551234", "+54", "+54 11 55", "54 9 11 5555-1234", "+54 9 11 5555-1234 999999", "+54 9 11 ABCD-1234"])(
    "refuses %s",
    (phone) => {
      expect(check(phoneWithAreaCodeSchema, phone)).toEqual(refused("Ingresá un número de teléfono válido"));
    },
  );
});

describe("identification number", () => {
  it.each([
    ["30123456", "30123456"],
    ["30.123.456", "30123456"],
    ["20-12345678-6", "20123456786"],
    ["20 12345678 6", "20123456786"],
    ["AB123456", "AB123456"],
    ["12345", "12345"],
  ])("accepts %s as %s", (input, stored) => {
    expect(check(identificationNumberSchema, input)).toEqual(accepted(stored));
  });

  it.each(["abc", "123", "1234", "ab123456", "123456789012", "20-12345678-69", "30123456/1", "3012345ñ"])(
    "refuses %s",
    (input) => {
      expect(check(identificationNumberSchema, input)).toEqual(refused("Ingresá un número de documento válido"));
    },
  );

  it("says only 'required' when empty and the trim message for edge spaces", () => {
    expect(check(identificationNumberSchema, "")).toEqual(refused("Este campo es obligatorio"));
    expect(check(identificationNumberSchema, "30123456 ")).toEqual(refused(MESSAGES.trim));
  });
});

describe("required text and minimum length", () => {
  it("requires something", () => {
    expect(check(requiredText(), "")).toEqual(refused("Este campo es obligatorio"));
    expect(check(requiredText(), undefined)).toEqual(refused("Este campo es obligatorio"));
    expect(check(requiredText(), "Av. Corrientes 1234")).toEqual(accepted("Av. Corrientes 1234"));
  });

  it("refuses spaces at either end", () => {
    expect(check(requiredText(), "Av. Corrientes 1234 ")).toEqual(refused(MESSAGES.trim));
  });

  it("counts the minimum length and says it with the number", () => {
    expect(check(requiredText({ min: 8 }), "1234567")).toEqual(refused("Este campo debe tener al menos 8 caracteres"));
    expect(check(requiredText({ min: 8 }), "12345678")).toEqual(accepted("12345678"));
    expect(check(requiredText({ min: 3 }), "ab")).toEqual(refused("Este campo debe tener al menos 3 caracteres"));
  });

  it("shows one message at a time: empty is 'required', not also 'too short'", () => {
    expect(check(passwordSchema, "")).toEqual(refused("Este campo es obligatorio"));
    expect(check(passwordSchema, "corta")).toEqual(refused("Este campo debe tener al menos 8 caracteres"));
    expect(check(passwordSchema, "clave-segura-1")).toEqual(accepted("clave-segura-1"));
  });
});

describe("nickname", () => {
  it("accepts letters, digits, dots, dashes and underscores", () => {
    expect(check(nicknameSchema, "romi.rrpp_2")).toEqual(accepted("romi.rrpp_2"));
  });

  it("refuses spaces with the no-spaces message", () => {
    expect(check(nicknameSchema, "romi rrpp")).toEqual(refused("Este campo no puede contener espacios"));
  });

  it("needs at least 3 characters", () => {
    expect(check(nicknameSchema, "ro")).toEqual(refused("Este campo debe tener al menos 3 caracteres"));
  });

  it("refuses accents and symbols with our own message", () => {
    expect(check(nicknameSchema, "josé")).toEqual(refused(MESSAGES.nickname));
    expect(check(nicknameSchema, "ro/mi")).toEqual(refused(MESSAGES.nickname));
  });
});

describe("optional fields", () => {
  it("treat empty and null as not given, but still check a value", () => {
    const schema = optional(phoneSchema);
    expect(check(schema, "")).toEqual(accepted(undefined));
    expect(check(schema, null)).toEqual(accepted(undefined));
    expect(check(schema, undefined)).toEqual(accepted(undefined));
    expect(check(schema, "1234")).toEqual(refused("Ingresá un número de teléfono válido"));
  });
});

describe("patterns", () => {
  it("number: digits only", () => {
    for (const good of ["0", "007", "1234567890"]) expect(PATTERNS.number.test(good), good).toBe(true);
    for (const bad of ["", "-1", "1.5", "1,5", "12a", " 12"]) expect(PATTERNS.number.test(bad), bad).toBe(false);
  });

  it("positive number: digits with at least one that is not zero", () => {
    for (const good of ["1", "10", "0001", "900"]) expect(PATTERNS.positiveNumber.test(good), good).toBe(true);
    for (const bad of ["", "0", "000", "-5", "1.5", "abc"]) expect(PATTERNS.positiveNumber.test(bad), bad).toBe(false);
  });

  it("url: a loose domain, with or without scheme, port and path", () => {
    for (const good of ["tribuna.ar", "https://www.tribuna.ar/eventos/rock?x=1", "http://sub.dominio.com.ar:8080", "instagram.com/tribuna"]) {
      expect(PATTERNS.url.test(good), good).toBe(true);
    }
    for (const bad of ["", "tribuna", "https://", "ftp://tribuna.ar", "tribuna .ar", "http://tribuna.a"]) {
      expect(PATTERNS.url.test(bad), bad).toBe(false);
    }
  });

  it("pixel id: all digits, otherwise the pixel does not load", () => {
    expect(isValidPixelId("123456789012345")).toBe(true);
    for (const bad of ["", "12a", "<script>", "12 34", "-1", null, undefined]) expect(isValidPixelId(bad), String(bad)).toBe(false);
  });
});

describe("document types", () => {
  it("offers exactly the spec's seven types", () => {
    expect(DOCUMENT_TYPES.map((d) => d.value)).toEqual(["dni", "cuit", "cuil", "cdi", "passport", "ci", "other"]);
    for (const { value } of DOCUMENT_TYPES) expect(check(documentTypeSchema, value)).toEqual(accepted(value));
  });

  it("refuses anything else in Spanish", () => {
    expect(check(documentTypeSchema, "DNI")).toEqual(refused(MESSAGES.documentType));
    expect(check(documentTypeSchema, "licencia")).toEqual(refused(MESSAGES.documentType));
  });
});

describe("provinces", () => {
  const SPEC_CODES = [
    "AR-CF", "AR-B", "AR-K", "AR-H", "AR-U", "AR-X", "AR-W", "AR-E", "AR-P", "AR-Y", "AR-L", "AR-F",
    "AR-M", "AR-N", "AR-Q", "AR-R", "AR-A", "AR-J", "AR-D", "AR-Z", "AR-S", "AR-G", "AR-V", "AR-T",
  ];

  it("offers the spec's 24 codes, each with a Spanish name", () => {
    expect(PROVINCES.map((p) => p.value)).toEqual(SPEC_CODES);
    expect(new Set(PROVINCES.map((p) => p.label)).size).toBe(24);
    expect(PROVINCES.find((p) => p.value === "AR-X")?.label).toBe("Córdoba");
    for (const code of SPEC_CODES) expect(check(provinceSchema, code)).toEqual(accepted(code));
  });

  it("refuses other codes, such as ISO's AR-C for the city", () => {
    expect(check(provinceSchema, "AR-C")).toEqual(refused(MESSAGES.province));
    expect(check(provinceSchema, "ar-cf")).toEqual(refused(MESSAGES.province));
  });
});
