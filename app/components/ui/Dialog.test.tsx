import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Badge } from "./Badge";
import { ConfirmButton, Dialog } from "./Dialog";

describe("ConfirmButton", () => {
  function page() {
    return renderToString(
      <form method="post" action="/organizacion/cupones">
        <input type="hidden" name="id" value="c1" />
        <input name="motivo" />
        <ConfirmButton name="intent" value="delete" title="¿Eliminar el cupón?" description="No se puede deshacer." confirmLabel="Eliminar">
          Eliminar cupón
        </ConfirmButton>
      </form>,
    );
  }

  it("asks before submitting even without JavaScript: the button opens a popover with the question and the real submit", () => {
    const html = page();
    const trigger = html.match(/<button[^>]*>Eliminar cupón<\/button>/)?.[0] ?? "";
    expect(trigger).toContain('type="button"');
    expect(trigger).not.toContain('name="intent"');
    const popoverId = trigger.match(/popovertarget="([^"]+)"/)?.[1];
    expect(popoverId).toBeTruthy();
    const popover = html.slice(html.indexOf(`id="${popoverId}"`));
    expect(popover).toMatch(/^id="[^"]+" popover="auto" role="dialog"/);
    expect(popover).toContain("¿Eliminar el cupón?");
    expect(popover).toContain("No se puede deshacer.");
    // The only button that sends intent=delete is the confirmation's, inside the popover.
    expect(html.match(/name="intent"/g)).toHaveLength(1);
    expect(popover).toMatch(/<button type="submit" name="intent" value="delete"[^>]*>Eliminar<\/button>/);
    expect(popover).toMatch(new RegExp(`<button type="button"[^>]*popovertarget="${popoverId}" popovertargetaction="hide"[^>]*>Cancelar</button>`));
  });

  it("makes Enter in a field of its form do nothing rather than confirm unasked", () => {
    const html = page();
    // The form's first submit button (the one Enter presses) is a disabled one.
    const firstSubmit = html.match(/<button[^>]*type="submit"[^>]*>/)?.[0] ?? "";
    expect(firstSubmit).toContain("disabled");
    expect(firstSubmit).not.toContain("name=");
  });
});

describe("Dialog", () => {
  it("renders nothing while closed", () => {
    const html = renderToString(<Dialog open={false} onOpenChange={() => {}} title="Confirmá" />);
    expect(html).toBe("");
  });
});

describe("Badge", () => {
  it("renders its text with the tone", () => {
    const html = renderToString(<Badge tone="success">Aprobada</Badge>);
    expect(html).toMatch(/<span[^>]*data-tone="success"[^>]*>Aprobada<\/span>/);
    expect(html).toContain("bg-green-500/15");
    expect(renderToString(<Badge>Pausado</Badge>)).toContain('data-tone="neutral"');
  });
});
