import { escapeHtml } from "#server/email/templates";
import { brand } from "#common/brand";

/*
 * A template's body is a small Markdown subset, never HTML (docs/campaigns.md):
 *   - paragraphs separated by a blank line (a single line break stays one);
 *   - `## Título` for a subtitle;
 *   - lists: lines that start with "- " or "* ", or "1. ";
 *   - **negrita**, *cursiva* or _cursiva_;
 *   - links [texto](https://…) (http and https only) or [texto]({{link_evento}}).
 * Everything else is text: the body is escaped first and only these marks
 * become tags. Variables ({{nombre}}…) are replaced after the Markdown is
 * rendered, escaped too, so a buyer's name never becomes markup.
 */

export type TemplateValues = Record<string, string>;

const LINK = /\[([^\]\n]+)\]\((https?:\/\/[^\s()<>]+|\{\{\s*link_evento\s*\}\})\)/g;
const VARIABLE = /\{\{\s*([a-z_]+)\s*\}\}/g;

function emphasis(escaped: string): string {
  return escaped.replace(/\*\*([^*\n]+?)\*\*/g, "<strong>$1</strong>").replace(/(^|[^*\w])\*([^*\n]+?)\*(?!\*)/g, "$1<em>$2</em>").replace(/(^|[^\w])_([^_\n]+?)_(?!\w)/g, "$1<em>$2</em>");
}

function inline(raw: string): string {
  let out = "";
  let last = 0;
  for (const match of raw.matchAll(LINK)) {
    out += emphasis(escapeHtml(raw.slice(last, match.index)));
    out += `<a href="${escapeHtml(match[2])}" style="color:${brand.email.link};font-weight:bold">${emphasis(escapeHtml(match[1]))}</a>`;
    last = match.index + match[0].length;
  }
  return out + emphasis(escapeHtml(raw.slice(last)));
}

const P_STYLE = "margin:0 0 16px;line-height:1.5";

/** The body's HTML, with the variables still in it (`{{nombre}}`). */
export function markdownToHtml(body: string): string {
  const blocks = body.replace(/\r\n?/g, "\n").split(/\n\s*\n/).map((b) => b.trim()).filter(Boolean);
  return blocks
    .map((block) => {
      const lines = block.split("\n").map((l) => l.trim());
      if (lines.every((l) => /^[-*]\s+/.test(l))) return `<ul style="${P_STYLE};padding-left:20px">${lines.map((l) => `<li>${inline(l.replace(/^[-*]\s+/, ""))}</li>`).join("")}</ul>`;
      if (lines.every((l) => /^\d+[.)]\s+/.test(l))) return `<ol style="${P_STYLE};padding-left:20px">${lines.map((l) => `<li>${inline(l.replace(/^\d+[.)]\s+/, ""))}</li>`).join("")}</ol>`;
      if (lines.length === 1 && /^#{1,3}\s+/.test(lines[0])) return `<h2 style="font-size:18px;margin:0 0 12px;color:${brand.email.heading}">${inline(lines[0].replace(/^#{1,3}\s+/, ""))}</h2>`;
      return `<p style="${P_STYLE}">${lines.map(inline).join("<br>")}</p>`;
    })
    .join("\n");
}

/** The body as plain text: marks dropped, links as "texto (url)". */
export function markdownToText(body: string): string {
  return body
    .replace(/\r\n?/g, "\n")
    .replace(LINK, "$1 ($2)")
    .replace(/\*\*([^*\n]+?)\*\*/g, "$1")
    .replace(/(^|[^*\w])\*([^*\n]+?)\*(?!\*)/g, "$1$2")
    .replace(/^#{1,3}\s+/gm, "")
    .trim();
}

/** Replaces the variables in HTML: each value escaped. */
export function fillHtml(html: string, values: TemplateValues): string {
  return html.replace(VARIABLE, (whole, name: string) => (name in values ? escapeHtml(values[name]) : escapeHtml(whole)));
}

/** Replaces the variables in plain text (a subject, the text part): line breaks become spaces. */
export function fillText(text: string, values: TemplateValues): string {
  return text.replace(VARIABLE, (whole, name: string) => (name in values ? values[name].replace(/[\r\n]+/g, " ") : whole));
}
