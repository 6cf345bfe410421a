import { parseWithZod } from "@conform-to/zod/v4";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Forbidden, GENERIC_ERROR, Invalid, NotFound, TooManyRequests } from "#server/errors";
import { domainErrorReply, invalidReply, mergeHeaders } from "./forms.server";

const schema = z.object({ email: z.string(), password: z.string() });
const submission = () => parseWithZod(new URLSearchParams({ email: "ana@example.com", password: "secreta-123", token: "t" }), { schema });

afterEach(() => vi.restoreAllMocks());

describe("domainErrorReply", () => {
  it("puts field errors next to the visible fields and the rest above the form", () => {
    const reply = domainErrorReply(submission(), new Invalid({ email: ["Ya existe"], token: ["Enlace vencido"] }), {
      fields: ["email", "password"],
      hideFields: ["password"],
    });
    expect(reply.status).toBe(400);
    expect(reply.result.error).toMatchObject({ email: ["Ya existe"], "": ["Enlace vencido"] });
    expect(reply.result.initialValue).toMatchObject({ email: "ana@example.com" });
    expect(reply.result.initialValue?.password).toBeUndefined();
  });

  it("a message without fields goes above the form, or next to the field asked for", () => {
    expect(domainErrorReply(submission(), new Forbidden("No podés")).result.error?.[""]).toEqual(["No podés"]);
    expect(domainErrorReply(submission(), new Forbidden("No podés")).status).toBe(403);
    const onEmail = domainErrorReply(submission(), new NotFound("No existe"), { messageField: "email" });
    expect(onEmail.result.error?.email).toEqual(["No existe"]);
    expect(domainErrorReply(submission(), new TooManyRequests()).status).toBe(429);
  });

  it("an unexpected error is logged and shown as the spec's generic error, status 500", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const reply = domainErrorReply(submission(), new Error("connection refused"), { hideFields: ["password"] });
    expect(reply.status).toBe(500);
    expect(reply.result.error?.[""]).toEqual([GENERIC_ERROR]);
    expect(GENERIC_ERROR).toBe("Upppsss... parece que hubo un error. Intentá en un rato");
    expect(log).toHaveBeenCalled();
  });
});

describe("invalidReply", () => {
  it("answers 400 and hides secret fields", () => {
    const bad = parseWithZod(new URLSearchParams({ email: "x", password: "p" }), { schema: z.object({ email: z.email(), password: z.string() }) });
    const reply = invalidReply(bad, { hideFields: ["password"] });
    expect(reply.status).toBe(400);
    expect(reply.result.error?.email).toBeTruthy();
    expect(reply.result.initialValue?.password).toBeUndefined();
  });
});

describe("mergeHeaders", () => {
  it("keeps every Set-Cookie of every source", () => {
    const a = new Headers();
    a.append("Set-Cookie", "at=1; Path=/");
    a.append("Set-Cookie", "rt=2; Path=/");
    const merged = mergeHeaders(a, { "Set-Cookie": "flash=3; Path=/", "X-Other": "y" });
    expect(merged.getSetCookie()).toEqual(["at=1; Path=/", "rt=2; Path=/", "flash=3; Path=/"]);
    expect(merged.get("x-other")).toBe("y");
  });
});
