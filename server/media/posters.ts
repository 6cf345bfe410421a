import fs from "node:fs";
import { createRequire } from "node:module";
import { DateTime } from "luxon";
import type { Font } from "fontkit";
import { TIME_ZONE } from "#common/dates";
import { brand } from "#common/brand";
import { saveWidthVariants, type StoredImage } from "./images";

/**
 * Posters for the demo's events (decision 112): an SVG in the brand's style with the event's name, dates and venue,
 * its art chosen by category (the category's word is not drawn: the event page shows it once, as a pill; decision 112) (bars and a record for music, a curtain for theatre, a sunset over hills for festivals…)
 * and varied by the event's slug, then stored like an upload, as WebP at every width. No network and no installed
 * fonts: the text is drawn as paths from the Space Grotesk that @fontsource ships (librsvg would need the font
 * installed to draw `<text>`, and a fresh machine may have none).
 */
export const POSTER_WIDTH = 1200;
export const POSTER_HEIGHT = 675;

export interface PosterInput {
  /** Varies the art between events of the same category. */
  slug: string;
  name: string;
  /** Chooses the colours and the art; never written on the poster. */
  category: string;
  dates: Date[];
  venueName: string;
  city: string;
}

const require = createRequire(import.meta.url);

/** Space Grotesk at the two weights the posters draw with. */
type PosterFonts = Record<500 | 700, Font>;
let posterFonts: Promise<PosterFonts> | undefined;

/** Read once, on the first poster: fontkit loads then, so the server's idle memory does not carry it (decision 242). */
function loadPosterFonts(): Promise<PosterFonts> {
  posterFonts ??= import("fontkit").then(({ create }) => {
    const read = (weight: 500 | 700) => create(fs.readFileSync(require.resolve(`@fontsource/space-grotesk/files/space-grotesk-latin-${weight}-normal.woff`)));
    return { 500: read(500), 700: read(700) };
  });
  return posterFonts;
}

/** Text as one SVG path, `x` at its left and `y` on its baseline, kerned; `tracking` adds space between letters (in em). */
function textPath(
  fonts: PosterFonts,
  text: string,
  { x, y, size, weight, fill, tracking = 0, opacity = 1 }: { x: number; y: number; size: number; weight: 500 | 700; fill: string; tracking?: number; opacity?: number },
) {
  const f = fonts[weight];
  const scale = size / f.unitsPerEm;
  const run = f.layout(text);
  let cursor = x;
  let d = "";
  run.glyphs.forEach((glyph, i) => {
    const position = run.positions[i];
    d += glyph.path.scale(scale, -scale).translate(cursor + position.xOffset * scale, y - position.yOffset * scale).toSVG();
    cursor += position.xAdvance * scale + tracking * size;
  });
  return `<path d="${d}" fill="${fill}"${opacity < 1 ? ` fill-opacity="${opacity}"` : ""}/>`;
}

function textWidth(fonts: PosterFonts, text: string, size: number, weight: 500 | 700, tracking = 0) {
  const f = fonts[weight];
  const run = f.layout(text);
  return run.positions.reduce((sum, p) => sum + p.xAdvance, 0) * (size / f.unitsPerEm) + tracking * size * run.glyphs.length;
}

/** Greedy word wrap at `width`; null when a line would need more than `maxLines`. */
function wrap(fonts: PosterFonts, text: string, size: number, width: number, maxLines: number): string[] | null {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (textWidth(fonts, next, size, 700) <= width) line = next;
    else {
      if (!line || textWidth(fonts, word, size, 700) > width) return null;
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines.length <= maxLines ? lines : null;
}

/** The biggest title size (from 104 px down) that fits in three lines. */
function fitTitle(fonts: PosterFonts, text: string, width: number): { size: number; lines: string[] } {
  for (let size = 104; size >= 44; size -= 4) {
    const lines = wrap(fonts, text, size, width, size >= 80 ? 2 : 3);
    if (lines) return { size, lines };
  }
  return { size: 44, lines: wrap(fonts, text, 44, width, 99) ?? [text] };
}

/** Deterministic numbers from the slug, so a poster is the same every time it is made. */
function random(seed: string) {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
  let a = (h << 13) | (h >>> 19);
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const { primary, secondary } = brand;

/** Per category: the background's three stops, the highlight for the date, and the art. */
interface Style {
  from: string;
  via: string;
  to: string;
  highlight: string;
  art: (r: () => number) => string;
}

const W = POSTER_WIDTH;
const H = POSTER_HEIGHT;
const n = (v: number) => Math.round(v * 10) / 10;

function equalizer(r: () => number, colors: string[]) {
  let out = "";
  const bars = 28;
  for (let i = 0; i < bars; i++) {
    const h = 60 + r() * 300;
    out += `<rect x="${n(560 + i * 23)}" y="${n(H - h)}" width="14" height="${n(h)}" rx="7" fill="${colors[i % colors.length]}" fill-opacity="${n(0.35 + r() * 0.5)}"/>`;
  }
  return out;
}

function record(cx: number, cy: number, radius: number, label: string) {
  let grooves = "";
  for (let rr = radius - 14; rr > radius * 0.4; rr -= 11) grooves += `<circle cx="${cx}" cy="${cy}" r="${rr}" fill="none" stroke="#ffffff" stroke-opacity="0.07" stroke-width="2"/>`;
  return `<circle cx="${cx}" cy="${cy}" r="${radius}" fill="#0b0b10"/>${grooves}<circle cx="${cx}" cy="${cy}" r="${n(radius * 0.33)}" fill="${label}"/><circle cx="${cx}" cy="${cy}" r="9" fill="#0b0b10"/>`;
}

const STYLES: Record<string, Style> = {
  recitales: {
    from: "#14072b",
    via: secondary[700],
    to: primary[700],
    highlight: primary[300],
    art: (r) => record(n(930 + r() * 60), n(250 + r() * 60), 250, secondary[400]) + equalizer(r, [primary[400], secondary[400], "#ffffff"]),
  },
  fiestas: {
    from: "#2a0533",
    via: "#a21caf",
    to: secondary[600],
    highlight: "#f9a8d4",
    art: (r) => {
      let out = "";
      // Soft lights: radial gradients (a blur filter would cost librsvg a second per poster).
      const glows = [primary[400], "#f472b6", secondary[400], "#facc15"];
      out += `<defs>${glows.map((c, i) => `<radialGradient id="glow${i}"><stop offset="0" stop-color="${c}" stop-opacity="0.45"/><stop offset="1" stop-color="${c}" stop-opacity="0"/></radialGradient>`).join("")}</defs>`;
      for (let i = 0; i < 5; i++) out += `<circle cx="${n(600 + r() * 600)}" cy="${n(r() * H)}" r="${n(150 + r() * 220)}" fill="url(#glow${i % 4})"/>`;
      for (let i = 0; i < 70; i++) {
        const x = 560 + r() * 640;
        const y = r() * H;
        out += `<rect x="${n(x)}" y="${n(y)}" width="${n(8 + r() * 14)}" height="${n(4 + r() * 6)}" rx="2" transform="rotate(${n(r() * 180)} ${n(x)} ${n(y)})" fill="${["#ffffff", "#facc15", primary[300], "#f9a8d4"][i % 4]}" fill-opacity="${n(0.5 + r() * 0.5)}"/>`;
      }
      return out;
    },
  },
  teatro: {
    from: "#1f0507",
    via: "#7f1d1d",
    to: "#b91c1c",
    highlight: "#fcd34d",
    art: (r) => {
      let out = `<ellipse cx="${n(930 + r() * 40)}" cy="${H - 40}" rx="260" ry="60" fill="#fde68a" fill-opacity="0.25"/><path d="M${n(850 + r() * 60)} 0 L700 ${H} L1160 ${H} L${n(1010 + r() * 60)} 0 Z" fill="#fde68a" fill-opacity="0.12"/>`;
      for (let i = 0; i < 9; i++) out += `<rect x="${1200 - (i + 1) * 34}" y="0" width="34" height="${H}" fill="url(#fold)" fill-opacity="${n(0.5 + (i % 2) * 0.3)}"/>`;
      out += `<path d="M560 0 H1200 V70 Q880 130 560 70 Z" fill="#450a0a"/>`;
      return out;
    },
  },
  "stand-up": {
    from: "#1c0f05",
    via: "#9a3412",
    to: "#ea580c",
    highlight: "#fde047",
    art: (r) => {
      let bricks = "";
      for (let row = 0; row < 16; row++)
        for (let col = 0; col < 10; col++) bricks += `<rect x="${560 + col * 70 - (row % 2) * 35}" y="${row * 44}" width="64" height="38" rx="3" fill="#000000" fill-opacity="${n(0.1 + r() * 0.12)}"/>`;
      const cx = n(900 + r() * 80);
      return `${bricks}<circle cx="${cx}" cy="300" r="260" fill="#fef3c7" fill-opacity="0.18"/><rect x="${cx - 4}" y="300" width="8" height="${H - 300}" fill="#0b0b10"/><rect x="${cx - 30}" y="195" width="60" height="120" rx="30" fill="#0b0b10"/><rect x="${cx - 22}" y="205" width="44" height="60" rx="22" fill="#3f3f46"/><rect x="${cx - 70}" y="${H - 14}" width="140" height="14" rx="7" fill="#0b0b10"/>`;
    },
  },
  festivales: {
    from: "#2e1065",
    via: "#db2777",
    to: "#f97316",
    highlight: "#fde68a",
    art: (r) => {
      const cx = n(880 + r() * 120);
      let rays = "";
      for (let i = 0; i < 18; i++) {
        const a = (Math.PI * i) / 18 + Math.PI;
        rays += `<path d="M${cx} 430 L${n(cx + Math.cos(a - 0.04) * 900)} ${n(430 + Math.sin(a - 0.04) * 900)} L${n(cx + Math.cos(a + 0.04) * 900)} ${n(430 + Math.sin(a + 0.04) * 900)} Z" fill="#fde68a" fill-opacity="0.09"/>`;
      }
      const hills = (y: number, amp: number, fill: string) => {
        let d = `M540 ${H}`;
        for (let x = 540; x <= 1200; x += 60) d += ` L${x} ${n(y - r() * amp)}`;
        return `<path d="${d} L1200 ${H} Z" fill="${fill}"/>`;
      };
      return `${rays}<circle cx="${cx}" cy="430" r="150" fill="#fde68a" fill-opacity="0.9"/>${hills(470, 140, "#4c1d95")}${hills(560, 80, "#2e1065")}`;
    },
  },
  deportes: {
    from: "#082f49",
    via: "#0369a1",
    to: primary[500],
    highlight: "#bef264",
    art: (r) => {
      let out = "";
      for (let i = 0; i < 7; i++) out += `<path d="M${620 + i * 95} ${H} L${820 + i * 95} 0" stroke="#ffffff" stroke-opacity="0.55" stroke-width="4" stroke-dasharray="${i % 2 ? "0" : "24 18"}"/>`;
      for (let i = 0; i < 12; i++) {
        const y = n(r() * H);
        out += `<rect x="${n(620 + r() * 500)}" y="${y}" width="${n(90 + r() * 200)}" height="6" rx="3" fill="#bef264" fill-opacity="${n(0.3 + r() * 0.5)}"/>`;
      }
      return out + `<circle cx="${n(1000 + r() * 80)}" cy="${n(150 + r() * 60)}" r="70" fill="#fef08a" fill-opacity="0.85"/>`;
    },
  },
  gastronomia: {
    from: "#1c0306",
    via: "#7f1d1d",
    to: "#9f1239",
    highlight: "#fcd34d",
    art: (r) => {
      let out = "";
      for (let i = 0; i < 6; i++) out += `<circle cx="${n(620 + r() * 560)}" cy="${n(r() * H)}" r="${n(50 + r() * 90)}" fill="none" stroke="#fecdd3" stroke-opacity="${n(0.12 + r() * 0.15)}" stroke-width="${n(6 + r() * 10)}"/>`;
      const glass = (x: number, fill: string) =>
        `<path d="M${x - 70} 170 Q${x - 80} 340 ${x} 360 Q${x + 80} 340 ${x + 70} 170 Z" fill="#ffffff" fill-opacity="0.16" stroke="#ffffff" stroke-opacity="0.6" stroke-width="4"/><path d="M${x - 74} 260 Q${x - 70} 345 ${x} 356 Q${x + 70} 345 ${x + 74} 260 Z" fill="${fill}"/><rect x="${x - 4}" y="360" width="8" height="170" fill="#ffffff" fill-opacity="0.6"/><ellipse cx="${x}" cy="532" rx="60" ry="12" fill="#ffffff" fill-opacity="0.6"/>`;
      return out + glass(n(880 + r() * 30), "#881337") + glass(n(1060 + r() * 30), "#fbbf24");
    },
  },
  conferencias: {
    from: "#020617",
    via: "#1e293b",
    to: "#0369a1",
    highlight: primary[300],
    art: (r) => {
      let out = "";
      for (let x = 600; x <= 1200; x += 50) out += `<path d="M${x} 0 V${H}" stroke="#ffffff" stroke-opacity="0.06"/>`;
      for (let y = 0; y <= H; y += 50) out += `<path d="M560 ${y} H1200" stroke="#ffffff" stroke-opacity="0.06"/>`;
      const nodes = Array.from({ length: 12 }, () => [n(620 + r() * 540), n(60 + r() * 560)]);
      nodes.forEach(([x, y], i) => {
        const [x2, y2] = nodes[(i + 1 + Math.floor(r() * 3)) % nodes.length];
        out += `<path d="M${x} ${y} L${x2} ${y2}" stroke="${primary[400]}" stroke-opacity="0.45" stroke-width="2"/>`;
      });
      for (const [x, y] of nodes) out += `<circle cx="${x}" cy="${y}" r="${n(6 + r() * 8)}" fill="${primary[300]}"/>`;
      return out;
    },
  },
  infantiles: {
    from: "#4a044e",
    via: "#c026d3",
    to: "#f59e0b",
    highlight: "#fef08a",
    art: (r) => {
      let out = "";
      for (let i = 0; i < 16; i++) out += `<circle cx="${n(600 + r() * 600)}" cy="${n(r() * H)}" r="${n(20 + r() * 70)}" fill="${["#fef08a", "#a5f3fc", "#f9a8d4", "#bbf7d0"][i % 4]}" fill-opacity="${n(0.35 + r() * 0.4)}"/>`;
      const star = (cx: number, cy: number, s: number) => {
        const pts = Array.from({ length: 10 }, (_, k) => {
          const a = (Math.PI / 5) * k - Math.PI / 2;
          const rad = k % 2 ? s * 0.45 : s;
          return `${n(cx + Math.cos(a) * rad)},${n(cy + Math.sin(a) * rad)}`;
        });
        return `<polygon points="${pts.join(" ")}" fill="#fef08a"/>`;
      };
      return out + star(n(950 + r() * 100), 220, 90) + star(n(720 + r() * 60), 520, 50);
    },
  },
  otros: {
    from: "#042f2e",
    via: primary[800],
    to: secondary[700],
    highlight: primary[300],
    art: (r) => {
      let out = "";
      for (let i = 0; i < 9; i++) {
        const x = 600 + r() * 560;
        const y = r() * H;
        const s = 60 + r() * 120;
        out += `<polygon points="${n(x)},${n(y - s)} ${n(x + s)},${n(y + s)} ${n(x - s)},${n(y + s)}" fill="${[primary[400], secondary[400], "#ffffff"][i % 3]}" fill-opacity="${n(0.12 + r() * 0.2)}"/>`;
      }
      return out;
    },
  },
};

const upper = (text: string) => text.toLocaleUpperCase("es-AR");

/** "SÁBADO 14 DE DICIEMBRE · 21 H", "14, 21 Y 28 DE DICIEMBRE · 21 H" or "DESDE EL 3 DE ENERO". */
export function posterDateLine(dates: Date[]): string {
  const days = [...dates].sort((a, b) => a.getTime() - b.getTime()).map((d) => DateTime.fromJSDate(d).setZone(TIME_ZONE).setLocale("es-AR"));
  if (!days.length) return "";
  const first = days[0];
  const time = first.minute ? first.toFormat("H:mm 'H'") : first.toFormat("H 'H'");
  const sameHour = days.every((d) => d.hour === first.hour && d.minute === first.minute);
  if (days.length === 1) return upper(`${first.toFormat("cccc d 'de' LLLL")} · ${time}`);
  const sameMonth = days.every((d) => d.month === first.month && d.year === first.year);
  if (sameMonth && days.length <= 4) {
    const numbers = days.map((d) => String(d.day));
    return upper(`${numbers.slice(0, -1).join(", ")} y ${numbers[numbers.length - 1]} de ${first.toFormat("LLLL")}${sameHour ? ` · ${time}` : ""}`);
  }
  return upper(`${days.length} fechas desde el ${first.toFormat("d 'de' LLLL")}`);
}

/** The poster as SVG, 1200 × 675 (the 16:9 of event images). */
export async function posterSvg(input: PosterInput): Promise<string> {
  const fonts = await loadPosterFonts();
  const style = STYLES[input.category] ?? STYLES.otros;
  const r = random(input.slug);
  const left = 64;
  const textWidthMax = 640;
  const title = fitTitle(fonts, input.name, textWidthMax);
  const lineHeight = title.size * 1.02;
  const dateLine = posterDateLine(input.dates);
  const venueLine = `${input.venueName} · ${input.city}`;
  const venueSize = textWidth(fonts, venueLine, 30, 500) > textWidthMax ? 24 : 30;
  // Bottom-up: wordmark, venue, date, then the title above them.
  const venueY = H - 132;
  const dateY = venueY - 50;
  const titleBottom = dateY - 58;
  const titleTop = titleBottom - (title.lines.length - 1) * lineHeight;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${style.from}"/><stop offset="0.55" stop-color="${style.via}"/><stop offset="1" stop-color="${style.to}"/></linearGradient>
<linearGradient id="shade" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#000000" stop-opacity="0.72"/><stop offset="0.55" stop-color="#000000" stop-opacity="0.45"/><stop offset="0.8" stop-color="#000000" stop-opacity="0"/></linearGradient>
<linearGradient id="fold" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#450a0a"/><stop offset="0.5" stop-color="#dc2626"/><stop offset="1" stop-color="#450a0a"/></linearGradient>
</defs>
<rect width="${W}" height="${H}" fill="url(#bg)"/>
${style.art(r)}
<rect width="${W}" height="${H}" fill="url(#shade)"/>
${title.lines.map((line, i) => textPath(fonts, line, { x: left - 4, y: n(titleTop + i * lineHeight), size: title.size, weight: 700, fill: "#ffffff" })).join("\n")}
${textPath(fonts, dateLine, { x: left, y: dateY, size: 32, weight: 700, fill: style.highlight, tracking: 0.02 })}
${textPath(fonts, venueLine, { x: left, y: venueY, size: venueSize, weight: 500, fill: "#ffffff", opacity: 0.9 })}
<rect x="${left}" y="${H - 88}" width="48" height="6" rx="3" fill="${primary[400]}"/>
${textPath(fonts, brand.name.toLowerCase(), { x: left + 64, y: H - 74, size: 26, weight: 700, fill: "#ffffff", opacity: 0.9 })}
</svg>`;
}

/** Renders the poster and stores it like an upload: WebP at 400, 800 and 1200 px; answers the widest. */
export async function savePoster(input: PosterInput): Promise<StoredImage> {
  return saveWidthVariants(Buffer.from(await posterSvg(input)));
}
