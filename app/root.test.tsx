import { afterEach, describe, expect, it, vi } from "vitest";
import { ErrorBoundary, loader } from "./root";
import { renderInRouter } from "#app/components/layout/render-in-router.test-helper";

async function rootData(url: string, cookie?: string) {
  const result = await loader({
    request: new Request(`http://localhost${url}`, { headers: cookie ? { cookie } : {} }),
    params: {},
    context: {},
  });
  return result.data;
}

describe("root loader", () => {
  it("publishes pixelId only when it is all digits", async () => {
    expect((await rootData("/?pixelId=123456")).pixelId).toBe("123456");
    for (const value of ["abc", "12a", "1 2", "%3Cscript%3E", ""]) {
      expect((await rootData(`/?pixelId=${value}`)).pixelId).toBeNull();
    }
    expect((await rootData("/")).pixelId).toBeNull();
  });

  it("reads the theme cookie, dark by default", async () => {
    expect((await rootData("/")).theme).toBe("dark");
    expect((await rootData("/", "theme=light")).theme).toBe("light");
    expect((await rootData("/", "theme=system")).theme).toBe("system");
    expect((await rootData("/", "theme=%3Cx%3E")).theme).toBe("dark");
  });

  it("keeps its keys for everyone else (user, theme, flash, pixelId, env, the analytics snippet)", async () => {
    expect(Object.keys(await rootData("/")).sort()).toEqual(["analyticsScript", "env", "flash", "pixelId", "theme", "user"]);
  });
});

describe("root ErrorBoundary", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("shows the 404 page for 404 responses", async () => {
    const { html, status } = await renderInRouter(<div />, {
      loader: () => {
        throw new Response("No está", { status: 404 });
      },
      errorElement: <ErrorBoundary />,
    });
    expect(status).toBe(404);
    expect(html).toContain("No encontramos esta página");
    expect(html).toContain("data-not-found");
    // The marker entry.client reads to load the error pages' chunk before hydrating (decision 239).
    expect(html).toContain("data-pagina-de-error");
  });

  it("shows the 500 page for other errors, without the error's details in production", async () => {
    vi.stubEnv("DEV", false);
    const { html } = await renderInRouter(<div />, {
      loader: () => {
        throw new Error("contraseña de la base: hunter2");
      },
      errorElement: <ErrorBoundary />,
    });
    expect(html).toContain("Algo salió mal");
    expect(html).toContain("No es por algo que hayas hecho o cargado: tuvimos un error. Probá de nuevo en unos minutos.");
    expect(html).not.toContain("faltó cargar");
    expect(html).not.toContain("hunter2");
    expect(html).not.toContain("<pre");
  });

  it("shows the details in development", async () => {
    vi.stubEnv("DEV", true);
    const { html } = await renderInRouter(<div />, {
      loader: () => {
        throw new Error("detalle para quien programa");
      },
      errorElement: <ErrorBoundary />,
    });
    expect(html).toContain("detalle para quien programa");
  });

  it("shows a 403 as a refusal with what to do, not as a 500", async () => {
    const { html, status } = await renderInRouter(<div />, {
      loader: () => {
        throw new Response("Solo el equipo de la organización puede ver esto.", { status: 403 });
      },
      errorElement: <ErrorBoundary />,
    });
    expect(status).toBe(403);
    expect(html).toContain("ERROR 403");
    expect(html).toContain("No tenés permiso para ver esta página");
    expect(html).toContain("Solo el equipo de la organización puede ver esto.");
    expect(html).toContain("pedíselo a quien administra la organización");
    expect(html).toContain('href="/"');
    expect(html).not.toContain("Algo salió mal");
    expect(html).not.toContain("ERROR 500");
  });

  it("shows other 4xx answers with their status and message, not as a 500", async () => {
    const { html, status } = await renderInRouter(<div />, {
      loader: () => {
        throw new Response("El enlace venció.", { status: 400 });
      },
      errorElement: <ErrorBoundary />,
    });
    expect(status).toBe(400);
    expect(html).toContain("ERROR 400");
    expect(html).toContain("El enlace venció.");
    expect(html).not.toContain("Algo salió mal");
  });
});
