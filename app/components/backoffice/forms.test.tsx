import { describe, expect, it } from "vitest";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import { BackofficeForm, FormErrorList, TextInput, toSubmissionResult, validateWith } from "./forms";
import { couponFormSchema, createEventFormSchema, teamInvitationFormSchema } from "./schemas";
import type { FormReply } from "./types";

function reply(extra: Partial<FormReply>): FormReply {
  return { values: {}, errors: {}, formErrors: [], snackbar: null, target: null, ...extra };
}

/** The element with this id, as HTML (its opening tag and text). */
function element(html: string, id: string): string {
  const match = new RegExp(`<[a-z]+[^>]*id="${id}"[^>]*>[^<]*`).exec(html);
  return match?.[0] ?? "";
}

function formData(entries: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.append(name, value);
  return data;
}

describe("BackofficeForm with the action's reply", () => {
  it("shows the server's message next to its field (domain key dates.0.endsAt), what was typed, and the form's messages", async () => {
    const answer = reply({
      values: { "dates[0].startsAt": "2030-05-01T21:00", "dates[0].endsAt": "2030-05-01T20:00" },
      errors: { "dates.0.endsAt": ["El fin tiene que ser después del inicio"] },
      formErrors: ["Ya hay un evento con ese link"],
    });
    const { html } = await renderInRouter(
      <BackofficeForm reply={answer} schema={createEventFormSchema} method="post">
        <FormErrorList reply={answer} />
        <TextInput name="dates[0].startsAt" label="Empieza" />
        <TextInput name="dates[0].endsAt" label="Termina" />
      </BackofficeForm>,
    );
    expect(element(html, "f-dates-0-endsAt-error")).toContain("El fin tiene que ser después del inicio");
    expect(element(html, "f-dates-0-startsAt-error")).not.toContain("El fin");
    const endsAt = element(html, "f-dates-0-endsAt");
    expect(endsAt).toContain('aria-invalid="true"');
    expect(endsAt).toContain('aria-describedby="f-dates-0-endsAt-error"');
    expect(endsAt).toContain('value="2030-05-01T20:00"');
    expect(html).toContain("Ya hay un evento con ese link");
    // Conform's form: no native (English) bubbles, validated in Spanish instead.
    expect(html).toMatch(/<form[^>]*novalidate=""/);
  });

  it("leaves a form alone when the reply is about another form of the page (target)", async () => {
    const answer = reply({ errors: { cbu: ["El CBU no es válido"] }, formErrors: ["No se pudo guardar"], target: "new", values: { cbu: "123" } });
    const { html } = await renderInRouter(
      <BackofficeForm reply={answer} target="otra" defaults={{ cbu: "2850590940090418135201" }} method="post">
        <FormErrorList reply={answer} target="otra" />
        <TextInput name="cbu" label="CBU" />
      </BackofficeForm>,
    );
    expect(html).not.toContain("El CBU no es válido");
    expect(html).not.toContain("No se pudo guardar");
    expect(element(html, "f-cbu")).toContain('value="2850590940090418135201"');
  });

  it("works without a schema (server answer only)", async () => {
    const answer = reply({ errors: { pixelId: ["El ID del píxel solo puede tener números"] } });
    const { html } = await renderInRouter(
      <BackofficeForm reply={answer} method="post" idPrefix="pixel">
        <TextInput name="pixelId" label="Píxel" />
      </BackofficeForm>,
    );
    expect(element(html, "pixel-pixelId-error")).toContain("El ID del píxel solo puede tener números");
  });
});

describe("validation in the browser", () => {
  it("blocks an invalid submit with the Spanish messages, under the inputs' names", () => {
    const validate = validateWith(teamInvitationFormSchema, () => ({}));
    const submission = validate({ formData: formData({ intent: "invite", email: "ana@", role: "staff" }), submitter: null });
    // Conform cancels the submit when the submission is not a success.
    expect(submission.status).toBe("error");
    expect(submission.reply().error).toEqual({ email: ["Este campo debe ser un email válido"] });

    const ok = validate({ formData: formData({ intent: "invite", email: "ana@example.com", role: "staff" }), submitter: null });
    expect(ok.status).toBe("success");
  });

  it("checks repeated rows and the rules across fields of the event form", () => {
    const validate = validateWith(createEventFormSchema, () => ({}));
    const submission = validate({
      formData: formData({
        name: "",
        category: "",
        venueName: "Club",
        venueAddress: "Calle 1",
        city: "CABA",
        province: "AR-CF",
        "dates[0].startsAt": "2030-05-01T21:00",
        "dates[0].endsAt": "2030-05-01T20:00",
        "ticketTypes[0].name": "General",
        "ticketTypes[0].price": "mil",
        "ticketTypes[0].stock": "100",
      }),
      submitter: null,
    });
    expect(submission.reply().error).toEqual({
      name: ["Este campo es obligatorio"],
      category: ["Elegí una categoría"],
      "dates[0].endsAt": ["El fin tiene que ser después del inicio"],
      "ticketTypes[0].price": ["Ingresá un precio válido (por ejemplo 1500 o 1.500,50)"],
    });
  });

  it("checks the coupon's kind against its value, with gaps in the ticket checkboxes", () => {
    const validate = validateWith(couponFormSchema, () => ({}));
    const submission = validate({
      formData: formData({ code: "VERANO", kind: "percent", percent: "", "ticketTypeIds[1]": "7b0a7a52-6a7e-4c43-9c4f-1b2d3e4f5a6b" }),
      submitter: null,
    });
    expect(submission.reply().error).toEqual({ percent: ["Ingresá un porcentaje entre 1 y 100"] });
  });

  it("lets buttons marked formNoValidate (add or remove a row) post the form as it is", () => {
    const validate = validateWith(createEventFormSchema, () => ({}));
    const button = { name: "intent", formNoValidate: true } as HTMLButtonElement;
    expect(validate({ formData: formData({ name: "" }), submitter: button }).status).toBe("success");
    // Conform's own button for checking a field on blur is formNoValidate as well, and it does check.
    const blur = { name: "__intent__", formNoValidate: true } as HTMLButtonElement;
    const intent = JSON.stringify({ type: "validate", payload: { name: "name" } });
    expect(validate({ formData: formData({ name: "", __intent__: intent }), submitter: blur }).reply().error).toMatchObject({ name: ["Este campo es obligatorio"] });
  });

  it("keeps the server's message about another field while one field is checked on blur", () => {
    const validate = validateWith(couponFormSchema, () => toSubmissionResult(reply({ errors: { code: ["Ya hay un cupón con ese código en este evento"] } })).error!);
    const blur = formData({ code: "VERANO", kind: "percent", percent: "", __intent__: JSON.stringify({ type: "validate", payload: { name: "percent" } }) });
    const result = validate({ formData: blur, submitter: null }).reply();
    // null: Conform keeps the message it already shows for that field.
    expect(result.error).toEqual({ percent: ["Ingresá un porcentaje entre 1 y 100"], code: null });
  });
});
