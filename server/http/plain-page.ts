import { brand } from "#common/brand";

/**
 * The small Spanish page the HTTP server answers with when it refuses a
 * request before Remix sees it (a foreign form, a malformed URL, a form
 * too big): the app's colours in both themes, no scripts, no assets.
 */
export function plainPage(title: string, paragraphs: string[]): string {
  const { light, dark } = brand.surfaces;
  return `<!doctype html>
<html lang="es-AR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Tribuna</title>
<style>body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:${dark.bg};color:${dark.text}}main{max-width:32rem;padding:2rem}a{color:${dark.accent}}@media (prefers-color-scheme: light){body{background:${light.bg};color:${light.text}}a{color:${light.accent}}}</style>
</head><body><main>
<h1>${title}</h1>
${paragraphs.map((p) => `<p>${p}</p>`).join("\n")}
<p><a href="/">Ir al inicio</a></p>
</main></body></html>`;
}
