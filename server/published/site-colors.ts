// Colours of a published site that stay readable whatever the site's customization picked: a text colour
// (links, the accent) is moved towards the page's own foreground until it has WCAG AA contrast (4.5:1)
// against the page's background, so a dark-blue primary still reads on the dark theme.

export const HEX = /^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/;

type Rgb = [number, number, number];

function rgbOf(hex: string): Rgb {
  const h = hex.length === 4 ? hex.slice(1).replace(/./g, (c) => c + c) : hex.slice(1);
  return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

const hexOf = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

function luminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The WCAG contrast ratio of two colours. */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(rgbOf(a)), luminance(rgbOf(b))].sort((m, n) => n - m);
  return (x + 0.05) / (y + 0.05);
}

/** `color` (a hex colour), or the nearest mix of it with `towards` that reads on `background` (4.5:1 at least). */
export function readableOn(color: string, background: string, towards: string): string {
  if (!HEX.test(color)) return towards;
  const from = rgbOf(color);
  const to = rgbOf(towards);
  for (let step = 0; step <= 20; step++) {
    const t = step / 20;
    const mixed = hexOf(from.map((c, i) => c + (to[i] - c) * t) as Rgb);
    if (contrast(mixed, background) >= 4.6) return mixed;
  }
  return towards;
}

/** White or near-black, whichever reads better on `background` (the text of a primary-coloured button). */
export function textOn(background: string): string {
  if (!HEX.test(background)) return '#ffffff';
  return contrast('#ffffff', background) >= contrast('#111111', background) ? '#ffffff' : '#111111';
}
