// The fonts of a published site (customization `styling.font` and `styling.monospaceFont`), as CSS
// font-family stacks and the `@font-face` rules of the files the site serves itself (font-files.ts).
// Decision (docs/sites-settings.md, "Fonts"): each font of the public API's set (CustomizationDefaultFont,
// CustomizationDefaultMonospaceFont) whose files are under the SIL Open Font License is served from this
// server, from an `@fontsource/*` package, at `<site URL>/~fonts/<file>`: nothing is fetched from a font CDN,
// so no reader is sent to a third party, and the page's Content-Security-Policy allows fonts from its own
// origin only (`font-src 'self'`). The family is followed by families of the same kind and metrics that
// common systems ship (macOS, Windows, Linux, Android), then the generic family: the page shows at once in
// those (`font-display: swap`) and whenever a file cannot be had. Fonts of the set whose license is not the
// OFL (ABC Favorit, commercial; Ubuntu, under the Ubuntu Font Licence; Roboto Slab, packaged under Apache
// 2.0) keep their name first in the stack and no file. A name outside the set (the contract takes a string)
// is used the same way, sanitized to letters, digits, spaces and hyphens, before the default stack.
const SANS = 'system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif';
const HUMANIST = '"Segoe UI","Trebuchet MS",Ubuntu,Cantarell,"Noto Sans",system-ui,sans-serif';
const GEOMETRIC = '"Century Gothic","Avenir Next",Avenir,Futura,"Segoe UI",system-ui,sans-serif';
const SERIF = 'Georgia,Cambria,"Noto Serif","Times New Roman",serif';
const SLAB = '"Rockwell","Roboto Slab","Courier New",Georgia,serif';
// The latin subset's characters, as the @fontsource packages cut it (their unicode.json, `latin`).
const LATIN = 'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD';
const MONO = 'ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace';

/** A font of the public set: the family it names, the stack that follows it, and its served files. */
interface Font {
  family: string;
  rest: string;
  /** The `@fontsource/<files>` package it is served from, and the weights served (latin subset, normal style). */
  files?: string;
  weights?: readonly number[];
}

// Body text is 400, the brand and current links 600, headings 700; a family without 600 (Lato) lets the
// browser take its 700 there. Code is 400 and, in a heading, 700.
const TEXT_WEIGHTS = [400, 600, 700] as const;
const CODE_WEIGHTS = [400, 700] as const;

/** The public API's text fonts, by their customization name. */
const FONTS: Record<string, Font> = {
  ABCFavorit: { family: 'ABC Favorit', rest: GEOMETRIC },
  Inter: { family: 'Inter', rest: SANS, files: 'inter', weights: TEXT_WEIGHTS },
  Roboto: { family: 'Roboto', rest: SANS, files: 'roboto', weights: TEXT_WEIGHTS },
  RobotoSlab: { family: 'Roboto Slab', rest: SLAB },
  OpenSans: { family: 'Open Sans', rest: HUMANIST, files: 'open-sans', weights: TEXT_WEIGHTS },
  // Source Sans Pro is now published, under the OFL as before, as Source Sans 3.
  SourceSansPro: { family: 'Source Sans Pro', rest: HUMANIST, files: 'source-sans-3', weights: TEXT_WEIGHTS },
  Lato: { family: 'Lato', rest: HUMANIST, files: 'lato', weights: [400, 700] },
  Ubuntu: { family: 'Ubuntu', rest: HUMANIST },
  Raleway: { family: 'Raleway', rest: GEOMETRIC, files: 'raleway', weights: TEXT_WEIGHTS },
  Merriweather: { family: 'Merriweather', rest: SERIF, files: 'merriweather', weights: TEXT_WEIGHTS },
  Overpass: { family: 'Overpass', rest: SANS, files: 'overpass', weights: TEXT_WEIGHTS },
  NotoSans: { family: 'Noto Sans', rest: SANS, files: 'noto-sans', weights: TEXT_WEIGHTS },
  IBMPlexSerif: { family: 'IBM Plex Serif', rest: SERIF, files: 'ibm-plex-serif', weights: TEXT_WEIGHTS },
  Poppins: { family: 'Poppins', rest: GEOMETRIC, files: 'poppins', weights: TEXT_WEIGHTS },
  FiraSans: { family: 'Fira Sans', rest: HUMANIST, files: 'fira-sans', weights: TEXT_WEIGHTS },
};

/** The public API's monospace fonts, by their customization name. */
const MONOSPACE_FONTS: Record<string, Font> = {
  FiraCode: { family: 'Fira Code', rest: MONO, files: 'fira-code', weights: CODE_WEIGHTS },
  IBMPlexMono: { family: 'IBM Plex Mono', rest: MONO, files: 'ibm-plex-mono', weights: CODE_WEIGHTS },
  JetBrainsMono: { family: 'JetBrains Mono', rest: MONO, files: 'jetbrains-mono', weights: CODE_WEIGHTS },
  SourceCodePro: { family: 'Source Code Pro', rest: MONO, files: 'source-code-pro', weights: CODE_WEIGHTS },
  RobotoMono: { family: 'Roboto Mono', rest: MONO, files: 'roboto-mono', weights: CODE_WEIGHTS },
  SpaceMono: { family: 'Space Mono', rest: MONO, files: 'space-mono', weights: CODE_WEIGHTS },
  DMMono: { family: 'DM Mono', rest: MONO, files: 'dm-mono', weights: [400] },
  Inconsolata: { family: 'Inconsolata', rest: MONO, files: 'inconsolata', weights: CODE_WEIGHTS },
};

/** The weights served of each `@fontsource` package, by its name (font-files.ts serves nothing else). */
export const SERVED_FILES: ReadonlyMap<string, readonly number[]> = new Map(
  [...Object.values(FONTS), ...Object.values(MONOSPACE_FONTS)].flatMap((f) => (f.files && f.weights ? [[f.files, f.weights] as const] : [])),
);

/** A family name safe inside a quoted CSS string, or undefined when nothing of it is left. */
function safeFamily(name: string): string | undefined {
  const kept = name.replace(/[^A-Za-z0-9 -]/g, '').trim().slice(0, 50);
  return kept || undefined;
}

/** A chosen font: a font of the set, one outside it (its sanitized name, no file), or the default. */
function fontOf(set: Record<string, Font>, name: string | undefined, fallback: Font): Font | undefined {
  if (name === undefined) return fallback;
  const family = Object.hasOwn(set, name) ? set[name] : undefined;
  if (family) return family;
  const safe = safeFamily(name);
  return safe ? { family: safe, rest: fallback.rest } : undefined;
}

const textFont = (font: string | undefined) => fontOf(FONTS, font, FONTS.Inter);
const codeFont = (font: string | undefined) => fontOf(MONOSPACE_FONTS, font, MONOSPACE_FONTS.IBMPlexMono);

/** The font-family stack of the site's `styling.font`; the default (Inter's) without one. */
export function textFontStack(font: string | undefined): string {
  const chosen = textFont(font);
  return chosen ? `"${chosen.family}",${chosen.rest}` : `"Inter",${SANS}`;
}

/** The font-family stack of the site's `styling.monospaceFont`; the default (IBM Plex Mono's) without one. */
export function monospaceFontStack(font: string | undefined): string {
  const chosen = codeFont(font);
  return chosen ? `"${chosen.family}",${MONO}` : MONO;
}

/** The file name of a served font's weight, under `<site URL>/~fonts/`. */
export const fontFileName = (files: string, weight: number) => `${files}-${weight}.woff2`;

/**
 * The `@font-face` rules of the site's two fonts, their files at `fontsUrl` (the site's `~fonts`); none for a
 * font without files. Latin only (unicode-range): other scripts go to the stack's system fonts.
 */
export function fontFaces(font: string | undefined, monospaceFont: string | undefined, fontsUrl: string): string {
  // The URL is a path of this server's (its segments percent-encoded); kept inside its CSS string whatever it holds.
  const base = fontsUrl.replace(/["\\<>\s]/g, (c) => encodeURIComponent(c));
  const rules: string[] = [];
  for (const chosen of [textFont(font), codeFont(monospaceFont)]) {
    if (!chosen?.files || !chosen.weights) continue;
    for (const weight of chosen.weights) {
      rules.push(
        `@font-face{font-family:"${chosen.family}";font-style:normal;font-weight:${weight};font-display:swap;src:url("${base}/${fontFileName(chosen.files, weight)}") format("woff2");unicode-range:${LATIN}}`,
      );
    }
  }
  return rules.join('\n');
}
