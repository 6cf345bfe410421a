import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DateFields, TicketTypeFields } from "#app/components/backoffice/EventFields";
import { FormScope } from "#app/components/backoffice/forms";
import { CouponForm } from "#app/components/coupons/CouponForm";
import { SearchForm } from "#app/components/events/SearchForm";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";
import { toDateTimeInput } from "#common/dates";

/** The `<input …>` tag with that name. */
function inputNamed(html: string, name: string): string {
  const tag = [...html.matchAll(/<input [^>]*>/g)].map((m) => m[0]).find((t) => t.includes(`name="${name}"`));
  if (!tag) throw new Error(`no input ${name}`);
  return tag;
}

function expectOurControl(tag: string, placeholder: string) {
  expect(tag).toContain('type="text"');
  expect(tag).toContain('inputMode="numeric"');
  expect(tag).toContain(`placeholder="${placeholder}"`);
  expect(tag).toMatch(/pattern="[^"]+"/);
  expect(tag).toMatch(/title="Escribí día, mes/);
}

describe("date controls", () => {
  it("the home search shows a saved day as dd/mm/aaaa in a text input", async () => {
    const { html } = await renderInRouter(
      <SearchForm values={{ q: "", provincia: "", categoria: "", desde: "2026-12-20", hasta: "" }} provinces={[]} categories={[]} />,
    );
    expect(html).not.toMatch(/type="date"|datetime-local|mm\/dd\/yyyy/);
    const desde = inputNamed(html, "desde");
    expectOurControl(desde, "dd/mm/aaaa");
    expect(desde).toContain('value="20/12/2026"');
    expect(inputNamed(html, "hasta")).toContain('value=""');
    expect(html).toContain("por ejemplo 20/12/2026");
  });

  it("the coupon form shows saved instants as dd/mm/aaaa hh:mm (Buenos Aires) and says the format", async () => {
    const defaults = { code: "AMIGOS", validFrom: toDateTimeInput(new Date("2026-12-21T00:30:00Z")), validUntil: "2027-01-05T23:59" };
    const { html } = await renderInRouter(<CouponForm defaults={defaults} tickets={[]} submitLabel="Guardar" />);
    expect(html).not.toMatch(/type="date"|datetime-local/);
    expectOurControl(inputNamed(html, "validFrom"), "dd/mm/aaaa hh:mm");
    expect(inputNamed(html, "validFrom")).toContain('value="20/12/2026 21:30"');
    expect(inputNamed(html, "validUntil")).toContain('value="05/01/2027 23:59"');
    expect(html).toContain("Día, mes, año y hora de Buenos Aires: por ejemplo 20/12/2026 21:30");
    expect(html).toContain("Vacío: sin vencimiento.");
  });

  it("the event's date fields and a ticket's sales window keep what the person typed after an error, with the message next to it", async () => {
    const reply = {
      formErrors: [],
      snackbar: null,
      target: null,
      values: { "dates[0].startsAt": "31/02/2030 21:30", "dates[0].endsAt": "2030-12-21T02:00", salesStartAt: "01/12/2030 10:00" },
      errors: { "dates.0.startsAt": ["Ingresá una fecha y hora válidas"] },
    };
    const { html } = await renderInRouter(
      <FormScope reply={reply}>
        <DateFields prefix="dates[0]." />
        <TicketTypeFields salesWindow />
      </FormScope>,
    );
    expect(html).not.toMatch(/type="date"|datetime-local/);
    const starts = inputNamed(html, "dates[0].startsAt");
    expectOurControl(starts, "dd/mm/aaaa hh:mm");
    expect(starts).toContain('value="31/02/2030 21:30"');
    expect(starts).toContain('aria-invalid="true"');
    expect(html).toContain("Ingresá una fecha y hora válidas");
    expect(inputNamed(html, "dates[0].endsAt")).toContain('value="21/12/2030 02:00"');
    expect(inputNamed(html, "salesStartAt")).toContain('value="01/12/2030 10:00"');
  });

  it("no page or component draws a native date input (they show mm/dd/yyyy in an English browser)", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && /type(=|:\s*)["{]*["'`]?(date|datetime-local)["'`]/.test(readFileSync(path, "utf8"))) offenders.push(path);
      }
    };
    walk(join(process.cwd(), "app"));
    expect(offenders).toEqual([]);
  });
});
