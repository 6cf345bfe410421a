/**
 * The small Spanish page the HTTP server answers with when it refuses a
 * request before Remix sees it (a foreign form, a malformed URL, a form
 * too big): the app's colours in both themes, no scripts, no assets.
 */
export function plainPage(title: string, paragraphs: string[]): string {
  return `<!doctype html>
<html lang="es-AR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Tribuna</title>
<style>body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#0b1416;color:#e7f3f3}main{max-width:32rem;padding:2rem}a{color:#5eead4}@media (prefers-color-scheme: light){body{background:#f6fbfb;color:#0b1416}a{color:#0f766e}}</style>
</head><body><main>
<h1>${title}</h1>
${paragraphs.map((p) => `<p>${p}</p>`).join("\n")}
<p><a href="/">Ir al inicio</a></p>
</main></body></html>`;
}
