import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SNACKBAR_MESSAGES, SnackbarHost } from "./Snackbar";

describe("SnackbarHost (server render)", () => {
  it("renders nothing but the live region without a flash", () => {
    const html = renderToString(<SnackbarHost flash={null} />);
    expect(html).toContain('aria-live="polite"');
    expect(html).not.toMatch(/data-snackbar="/);
  });

  it("renders a success flash as a status with a close control that needs no JavaScript", () => {
    const html = renderToString(<SnackbarHost flash={{ type: "success", message: SNACKBAR_MESSAGES.saveSuccess }} />);
    expect(html).toMatch(/role="status" data-snackbar="success"/);
    expect(html).toContain("¡Todo genial! Guardamos tus datos");
    // The checkbox hides the snackbar via CSS (:has(:checked)); the label is the visible ×.
    expect(html).toMatch(/class="[^"]*has-checked:hidden/);
    expect(html).toMatch(/<input id="snackbar-cerrar-0" type="checkbox"[^>]*aria-label="Cerrar aviso"/);
    expect(html).toMatch(/<label for="snackbar-cerrar-0"/);
  });

  it("renders an error flash as an alert", () => {
    const html = renderToString(<SnackbarHost flash={{ type: "error", message: SNACKBAR_MESSAGES.genericError }} />);
    expect(html).toMatch(/role="alert" data-snackbar="error"/);
    expect(html).toContain("Upppsss... parece que hubo un error. Intentá en un rato");
  });
});

describe("messages", () => {
  it("are the spec's, to the letter", () => {
    expect(SNACKBAR_MESSAGES).toEqual({
      genericError: "Upppsss... parece que hubo un error. Intentá en un rato",
      saveError: "Upppsss... parece que te faltó cargar algunos datos.",
      saveSuccess: "¡Todo genial! Guardamos tus datos",
    });
  });
});
