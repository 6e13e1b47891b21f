// The style sheet of a published site's pages, inline in each page (one request fewer; about 9 kB before
// compression): the site's customization as CSS variables (colours, fonts, corners), a light and a dark
// palette (the reader's system setting, or the switch's choice kept in `data-theme` on <html>), the page
// layout (header, pages, content, "on this page"), and the blocks render-markdown.ts writes. With
// scripts off (no `js` class on <html>), interactive parts fall back: every tab panel shows under its
// title, the copy buttons hide. Print shows every panel too. Motion stops when the reader asks for less.
import type { SiteCustomization } from '../sites/customization.js';
import { fontFaces, monospaceFontStack, textFontStack } from './fonts.js';
import { HEX, readableOn, textOn } from './site-colors.js';

const LIGHT_BG = '#ffffff';
const DARK_BG = '#16171a';
const pick = (value: string | undefined, fallback: string) => (value && HEX.test(value) ? value : fallback);

function palette(custom: SiteCustomization, mode: 'light' | 'dark'): string {
  const s = custom.styling;
  const primary = pick(s?.primaryColor?.[mode], '#346DDB');
  const tint = pick(s?.tint?.color?.[mode], primary);
  const bg = mode === 'light' ? LIGHT_BG : DARK_BG;
  const fg = mode === 'light' ? '#1d1d1f' : '#e8eaed';
  const code = mode === 'light' ? '#f5f6f8' : '#202226';
  const hint = (c: { light?: string; dark?: string } | undefined, fallback: string) => readableOn(pick(c?.[mode], fallback), code, fg);
  return [
    `--primary:${primary}`,
    `--tint:${tint}`,
    `--link:${readableOn(primary, code, fg)}`,
    `--on-primary:${textOn(primary)}`,
    `--fg:${fg}`,
    `--muted:${mode === 'light' ? '#5b5f66' : '#a3a8b0'}`,
    `--bg:${bg}`,
    `--line:${mode === 'light' ? '#e3e5e8' : '#30333a'}`,
    `--code:${code}`,
    `--raised:${mode === 'light' ? '#ffffff' : '#1e2024'}`,
    `--info:${hint(s?.infoColor, '#346DDB')}`,
    `--success:${hint(s?.successColor, '#1E8E3E')}`,
    `--warning:${hint(s?.warningColor, '#B06000')}`,
    `--danger:${hint(s?.dangerColor, '#D93025')}`,
  ].join(';');
}

const layout = `*{box-sizing:border-box}html{-webkit-text-size-adjust:100%}body{margin:0;font:16px/1.6 var(--font);color:var(--fg);background:var(--bg)}
a{color:var(--link)}:focus-visible{outline:2px solid var(--link);outline-offset:2px}
.skip-link{position:absolute;left:-999px;top:.5rem;z-index:20;padding:.5rem 1rem;background:var(--raised);border:1px solid var(--line)}.skip-link:focus{left:.5rem}
header.top{position:sticky;top:0;z-index:10;display:flex;flex-wrap:wrap;gap:1rem 1.5rem;align-items:center;padding:.6rem 1.5rem;border-bottom:1px solid var(--line);border-top:3px solid var(--tint);background:var(--bg)}
.brand{font-weight:600;color:var(--fg);text-decoration:none;display:flex;gap:.5rem;align-items:center}.brand img{height:28px}.logo-dark{display:none}
nav.sections a{margin-right:1rem;color:var(--muted);text-decoration:none}nav.sections a[aria-current]{color:var(--link);font-weight:600}
nav.links a{margin-right:1rem;color:var(--fg);text-decoration:none}nav.links a.button{padding:.25rem .75rem;border-radius:var(--radius);background:var(--primary);color:var(--on-primary)}
.tools{margin-left:auto;display:flex;gap:.75rem;align-items:center}.signout{color:var(--muted);font-size:.9rem}
form.search{position:relative}form.search input{width:14rem;padding:.35rem .6rem;border:1px solid var(--line);border-radius:var(--radius);background:var(--bg);color:var(--fg);font:inherit}
form.search kbd{position:absolute;right:.5rem;top:.45rem;font-size:.75rem;color:var(--muted);pointer-events:none}
#search-results{position:absolute;right:0;top:2.6rem;width:min(32rem,90vw);max-height:70vh;overflow:auto;padding:.5rem 1rem;background:var(--raised);border:1px solid var(--line);border-radius:var(--radius);box-shadow:0 8px 24px rgb(0 0 0/.18)}
.theme-toggle{display:none;padding:.3rem .55rem;border:1px solid var(--line);border-radius:var(--radius);background:var(--bg);color:var(--fg);font:inherit;cursor:pointer}.js .theme-toggle{display:inline-block}
.layout{display:flex;max-width:1400px;margin:0 auto}.sidebar{width:260px;flex:none;padding:1.5rem 1rem;border-right:1px solid var(--line)}
.sidebar ul{list-style:none;margin:0;padding:0}.sidebar li a{display:block;padding:.2rem .5rem;border-radius:var(--radius);color:var(--fg);text-decoration:none}
.sidebar li a[aria-current]{background:var(--code);color:var(--link);font-weight:600}.sidebar .group{margin-top:1rem;font-size:.8rem;text-transform:uppercase;color:var(--muted)}
.variants{margin-bottom:1rem}.variants a{display:inline-block;margin:0 .4rem .4rem 0;padding:.1rem .5rem;border:1px solid var(--line);border-radius:999px;font-size:.85rem;text-decoration:none}
.variants a[aria-current]{border-color:var(--link)}main{flex:1;min-width:0;padding:1.5rem 2.5rem}article{max-width:48rem}
.outline{width:220px;flex:none;padding:1.5rem 1rem;font-size:.875rem}.outline nav{position:sticky;top:5rem}.outline h2{margin:0 0 .5rem;font-size:.8rem;text-transform:uppercase;color:var(--muted)}
.outline ul{list-style:none;margin:0;padding:0;border-left:1px solid var(--line)}.outline a{display:block;padding:.15rem .75rem;color:var(--muted);text-decoration:none}.outline .depth-3 a{padding-left:1.5rem}
.outline a[aria-current]{color:var(--link);border-left:2px solid var(--link);margin-left:-1px}
h1,h2,h3,h4,h5,h6{line-height:1.25;scroll-margin-top:5rem}.anchor{margin-left:.4rem;opacity:0;text-decoration:none;color:var(--muted)}:is(h1,h2,h3,h4,h5,h6):hover .anchor,.anchor:focus{opacity:1}
.description{color:var(--muted);font-size:1.1rem}
nav.pager{display:flex;justify-content:space-between;gap:1rem;margin-top:3rem;padding-top:1rem;border-top:1px solid var(--line)}
nav.pager a{display:block;padding:.6rem 1rem;border:1px solid var(--line);border-radius:var(--radius);text-decoration:none;max-width:48%}nav.pager a[rel=next]{margin-left:auto;text-align:right}
footer{padding:2rem 1.5rem;color:var(--muted);font-size:.85rem;text-align:center;border-top:1px solid var(--line)}footer a{color:var(--muted)}
footer .groups{display:flex;gap:3rem;justify-content:center;margin-bottom:1rem;text-align:left}footer .groups ul{list-style:none;padding:0;margin:.25rem 0}
.announcement{padding:.5rem 1.5rem;text-align:center;background:color-mix(in srgb,var(--primary) 14%,var(--bg));border-bottom:1px solid var(--primary)}.announcement a{margin-left:.5rem;font-weight:600}
.results{padding:0;list-style:none}.results li{margin-bottom:1rem}.results .result-section{margin-left:.5rem;color:var(--muted);font-size:.85rem}.results .excerpt{margin:.2rem 0 0;color:var(--muted);font-size:.9rem}
mark{background:color-mix(in srgb,#ffd84d 55%,var(--bg));color:var(--fg);border-radius:2px}
@media (max-width:1100px){.outline{display:none}}
@media (max-width:800px){.layout{display:block}.sidebar{width:auto;border-right:0;border-bottom:1px solid var(--line)}main{padding:1rem}form.search input{width:10rem}}`;

const blocks = `pre{background:var(--code);padding:1rem;border-radius:var(--radius);overflow:auto;line-height:1.5}code{font-family:var(--mono);font-size:.875em}
:not(pre)>code{padding:.1em .35em;background:var(--code);border-radius:4px}
table{border-collapse:collapse;display:block;overflow-x:auto}th,td{border:1px solid var(--line);padding:.4rem .7rem}blockquote{margin:0;padding-left:1rem;border-left:3px solid var(--line);color:var(--muted)}
img{max-width:100%;height:auto}hr{border:0;border-top:1px solid var(--line);margin:2rem 0}
.hint{margin:1rem 0;padding:.75rem 1rem;border-left:4px solid var(--hint);border-radius:var(--radius);background:color-mix(in srgb,var(--hint) 10%,var(--bg))}.hint>:first-child{margin-top:0}.hint>:last-child{margin-bottom:0}
.hint-info{--hint:var(--info)}.hint-success{--hint:var(--success)}.hint-warning{--hint:var(--warning)}.hint-danger{--hint:var(--danger)}
.code-block{margin:1rem 0;border:1px solid var(--line);border-radius:var(--radius);overflow:hidden}.code-block pre{margin:0;border-radius:0}
.code-header{display:flex;align-items:center;gap:.5rem;padding:.3rem .5rem .3rem 1rem;border-bottom:1px solid var(--line);background:var(--code);font-size:.85rem;color:var(--muted)}
.code-title{font-family:var(--mono)}.copy{display:none;margin-left:auto;padding:.15rem .6rem;border:1px solid var(--line);border-radius:var(--radius);background:var(--bg);color:var(--fg);font:inherit;font-size:.8rem;cursor:pointer}.js .copy{display:inline-block}
.line-numbers code{counter-reset:line}.line-numbers .line::before{counter-increment:line;content:counter(line);display:inline-block;width:2.5em;margin-right:1em;text-align:right;color:var(--muted)}
.wrap pre{white-space:pre-wrap;overflow-wrap:anywhere}
.katex-display{overflow-x:auto;overflow-y:hidden;padding:.25rem 0}
.tablist{display:none;gap:.25rem;border-bottom:1px solid var(--line);overflow-x:auto}.js .tablist{display:flex}
[role=tab]{padding:.5rem .9rem;border:0;border-bottom:2px solid transparent;background:none;color:var(--muted);font:inherit;cursor:pointer}[role=tab][aria-selected=true]{color:var(--link);border-bottom-color:var(--link);font-weight:600}
.tabs{margin:1rem 0;border:1px solid var(--line);border-radius:var(--radius)}.js .tabs:not(.ready)>.tab-panel:not(:first-of-type){display:none}.tab-panel{padding:0 1rem}.tab-title{font-weight:600;margin-bottom:0}.js .tab-title{display:none}
details.expandable{margin:1rem 0;border:1px solid var(--line);border-radius:var(--radius);padding:.5rem 1rem}details.expandable>summary{cursor:pointer;font-weight:600}
.stepper{list-style:none;counter-reset:step;padding:0;margin:1rem 0}.step{position:relative;padding:0 0 .5rem 3rem;counter-increment:step}
.step::before{content:counter(step);position:absolute;left:0;top:.1rem;width:2rem;height:2rem;border-radius:50%;background:var(--code);border:1px solid var(--line);text-align:center;line-height:2rem;font-weight:600}
.step::after{content:"";position:absolute;left:1rem;top:2.3rem;bottom:.2rem;border-left:1px solid var(--line)}.step:last-child::after{display:none}.step>:first-child{margin-top:0}
.columns{display:flex;gap:1.5rem;margin:1rem 0}.column{flex:1 1 0;min-width:0}.column>:first-child{margin-top:0}@media (max-width:800px){.columns{flex-direction:column}}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:1rem;margin:1rem 0}.card{display:block;border:1px solid var(--line);border-radius:var(--radius);overflow:hidden;color:var(--fg);text-decoration:none;background:var(--raised)}
a.card:hover{border-color:var(--link)}.card img{display:block;width:100%;aspect-ratio:16/9;object-fit:cover}.card-body{padding:.75rem 1rem}.card-body>*{margin:.2rem 0}
figure{margin:1.5rem 0}figcaption{color:var(--muted);font-size:.9rem;text-align:center}.zoom{display:inline-block;cursor:zoom-in}
dialog.zoomed{max-width:95vw;max-height:95vh;padding:0;border:0;background:transparent}dialog.zoomed::backdrop{background:rgb(0 0 0/.8)}dialog.zoomed img{max-width:95vw;max-height:90vh;cursor:zoom-out}
.link-card{display:flex;align-items:center;gap:.75rem;margin:1rem 0;padding:.75rem 1rem;border:1px solid var(--line);border-radius:var(--radius);color:var(--fg);text-decoration:none;background:var(--raised)}
.link-card:hover{border-color:var(--link)}.link-card img{width:24px;height:24px}.link-card .card-kind{margin-left:auto;color:var(--muted);font-size:.85rem}.link-card strong{color:var(--link)}
.embed{margin:1rem 0}.embed iframe{display:block;width:100%;aspect-ratio:16/9;border:1px solid var(--line);border-radius:var(--radius)}.embed .link-card{margin-top:.5rem}
a.button,button.button{display:inline-block;padding:.4rem 1rem;border-radius:var(--radius);text-decoration:none;font:inherit;font-weight:600;line-height:1.6;border:1px solid var(--primary);cursor:pointer}.button-primary{background:var(--primary);color:var(--on-primary)}.button-secondary{color:var(--link);background:transparent}.button .icon{margin-right:.4rem}html:not(.js) button[data-action]{display:none}
.icon{display:inline-block;min-width:1em;text-align:center}
.mention{display:inline-flex;gap:.25rem;align-items:baseline;padding:0 .45rem;border:1px solid var(--line);border-radius:999px;background:var(--code);color:var(--fg);font-weight:500;text-decoration:none}a.mention{color:var(--link)}a.mention:hover{border-color:var(--link)}.mention-kind{font-size:.85em}
.updates{border-left:2px solid var(--line);padding-left:1.25rem;margin:1rem 0}.update-date{margin:1.5rem 0 .25rem;font-size:.85rem;color:var(--muted);font-weight:600}
.footnotes{margin-top:3rem;font-size:.9rem;color:var(--muted);border-top:1px solid var(--line)}.footnote-ref{position:relative}.footnote-ref>a{padding:0 .15rem;text-decoration:none}
.footnote-popover{position:absolute;left:0;top:100%;z-index:15;display:block;width:max-content;max-width:min(22rem,80vw);margin-top:.25rem;padding:.5rem .75rem;background:var(--raised);color:var(--fg);border:1px solid var(--line);border-radius:var(--radius);box-shadow:0 6px 18px rgb(0 0 0/.18);font-size:.9rem;font-weight:400;line-height:1.5;text-align:left;vertical-align:baseline;white-space:normal}.footnote-popover>*{margin:0}.footnote-popover>*+*{margin-top:.5rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media print{header.top,.sidebar,.outline,nav.pager,.tablist,.copy,footer{display:none!important}.tab-panel[hidden]{display:block!important}.js .tab-title{display:block!important}details.expandable>*{display:block}}
@media (prefers-reduced-motion:no-preference){html{scroll-behavior:smooth}}@media (prefers-reduced-motion:reduce){*,::before,::after{animation:none!important;transition:none!important;scroll-behavior:auto!important}}`;

/** The page's style sheet for the site's customization; `fontsUrl` is where the site serves its font files. */
export function siteStyleSheet(custom: SiteCustomization, fontsUrl: string): string {
  const light = palette(custom, 'light');
  const dark = palette(custom, 'dark');
  const radius = custom.styling?.corners === 'straight' ? '2px' : '8px';
  const fonts = `--font:${textFontStack(custom.styling?.font)};--mono:${monospaceFontStack(custom.styling?.monospaceFont)};--radius:${radius}`;
  // The dark palette and what changes with it, under `scope` (the selector of <html> when dark).
  const darkUnder = (scope: string) =>
    `${scope}{${dark};color-scheme:dark}${scope} .shiki,${scope} .shiki span{color:var(--shiki-dark)!important;background-color:var(--shiki-dark-bg)!important}${scope} .logo-light{display:none}${scope} .logo-dark{display:inline}`;
  // themes.default is the theme shown first; with themes.toggeable the reader's system setting wins over it,
  // and the switch (site-script.ts, `data-theme` on <html>) over both.
  let themes: string;
  if (custom.themes?.toggeable === false) themes = custom.themes?.default === 'dark' ? darkUnder(':root') : `:root{${light};color-scheme:light}`;
  else {
    themes = `${custom.themes?.default === 'dark' ? darkUnder(':root') : `:root{${light}}`}
@media (prefers-color-scheme:dark){${darkUnder(':root:not([data-theme=light])')}}
@media (prefers-color-scheme:light){:root:not([data-theme=dark]){${light};color-scheme:light}}
:root[data-theme=light]{${light};color-scheme:light}${darkUnder(':root[data-theme=dark]')}`;
  }
  return `${fontFaces(custom.styling?.font, custom.styling?.monospaceFont, fontsUrl)}
:root{${fonts}}
${themes}
${layout}
${blocks}`;
}
