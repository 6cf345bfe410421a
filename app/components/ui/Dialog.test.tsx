import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Badge } from "./Badge";
import { ConfirmButton, Dialog } from "./Dialog";

describe("ConfirmButton", () => {
  it("is a plain submit button of its form (so it still works without JavaScript)", () => {
    const html = renderToString(
      <form method="post" action="/organizacion/cupones">
        <input type="hidden" name="id" value="c1" />
        <ConfirmButton name="intent" value="delete" title="¿Eliminar el cupón?" confirmLabel="Eliminar">
          Eliminar cupón
        </ConfirmButton>
      </form>,
    );
    expect(html).toMatch(/<button name="intent" value="delete" type="submit">Eliminar cupón<\/button>/);
    // The dialog is not in the page until it is opened.
    expect(html).not.toContain("¿Eliminar el cupón?");
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
