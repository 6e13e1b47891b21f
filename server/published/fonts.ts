// The fonts of a published site (customization `styling.font` and `styling.monospaceFont`), as CSS
// font-family stacks. Decision (docs/sites-settings.md, "Fonts"): no font file is downloaded from anywhere, this
// server's or a font CDN's. Each font of the public API's set (CustomizationDefaultFont,
// CustomizationDefaultMonospaceFont) is the named family first, used when the reader's system has it, then
// families of the same kind and metrics that common systems ship (macOS, Windows, Linux, Android), then the
// generic family. A page therefore loads nothing for its fonts, leaks no reader to a third party, and its
// Content-Security-Policy needs no `font-src`. A name outside the set (the contract takes a string) is used
// the same way, sanitized to letters, digits, spaces and hyphens, before the default stack.

const SANS = 'system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif';
const HUMANIST = '"Segoe UI","Trebuchet MS",Ubuntu,Cantarell,"Noto Sans",system-ui,sans-serif';
const GEOMETRIC = '"Century Gothic","Avenir Next",Avenir,Futura,"Segoe UI",system-ui,sans-serif';
const SERIF = 'Georgia,Cambria,"Noto Serif","Times New Roman",serif';
const SLAB = '"Rockwell","Roboto Slab","Courier New",Georgia,serif';
const MONO = 'ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace';

/** The public API's fonts, each as the family it names and the stack that follows it. */
const FONTS: Record<string, [family: string, rest: string]> = {
  ABCFavorit: ['ABC Favorit', GEOMETRIC],
  Inter: ['Inter', SANS],
  Roboto: ['Roboto', SANS],
  RobotoSlab: ['Roboto Slab', SLAB],
  OpenSans: ['Open Sans', HUMANIST],
  SourceSansPro: ['Source Sans Pro', HUMANIST],
  Lato: ['Lato', HUMANIST],
  Ubuntu: ['Ubuntu', HUMANIST],
  Raleway: ['Raleway', GEOMETRIC],
  Merriweather: ['Merriweather', SERIF],
  Overpass: ['Overpass', SANS],
  NotoSans: ['Noto Sans', SANS],
  IBMPlexSerif: ['IBM Plex Serif', SERIF],
  Poppins: ['Poppins', GEOMETRIC],
  FiraSans: ['Fira Sans', HUMANIST],
};

const MONOSPACE_FONTS: Record<string, string> = {
  FiraCode: 'Fira Code',
  IBMPlexMono: 'IBM Plex Mono',
  JetBrainsMono: 'JetBrains Mono',
  SourceCodePro: 'Source Code Pro',
  RobotoMono: 'Roboto Mono',
  SpaceMono: 'Space Mono',
  DMMono: 'DM Mono',
  Inconsolata: 'Inconsolata',
};

/** A family name safe inside a quoted CSS string, or undefined when nothing of it is left. */
function safeFamily(name: string): string | undefined {
  const kept = name.replace(/[^A-Za-z0-9 -]/g, '').trim().slice(0, 50);
  return kept || undefined;
}

/** The font-family stack of the site's `styling.font`; the default (Inter's) without one. */
export function textFontStack(font: string | undefined): string {
  const known = font !== undefined ? FONTS[font] : undefined;
  if (known) return `"${known[0]}",${known[1]}`;
  const family = font !== undefined ? safeFamily(font) : undefined;
  return family ? `"${family}",${SANS}` : `"Inter",${SANS}`;
}

/** The font-family stack of the site's `styling.monospaceFont`; the default (IBM Plex Mono's) without one. */
export function monospaceFontStack(font: string | undefined): string {
  const family = font !== undefined ? (MONOSPACE_FONTS[font] ?? safeFamily(font)) : 'IBM Plex Mono';
  return family ? `"${family}",${MONO}` : MONO;
}
