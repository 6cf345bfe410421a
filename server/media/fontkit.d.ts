/** The part of fontkit (which ships no types) that the poster renderer uses. */
declare module "fontkit" {
  interface Path {
    scale(scaleX: number, scaleY?: number): Path;
    translate(x: number, y: number): Path;
    toSVG(): string;
  }
  interface Glyph {
    path: Path;
  }
  interface GlyphPosition {
    xAdvance: number;
    yAdvance: number;
    xOffset: number;
    yOffset: number;
  }
  interface GlyphRun {
    glyphs: Glyph[];
    positions: GlyphPosition[];
  }
  interface Font {
    unitsPerEm: number;
    layout(text: string): GlyphRun;
  }
  export function create(buffer: Buffer): Font;
}
