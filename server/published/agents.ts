// What a published site gives AI agents and search engines, decided by the site's `agentsContext` and
// visibility (docs/sites-settings.md, "Agents and indexing"):
//   - robots.txt: crawlers may index a public site only; the known AI crawlers are disallowed when
//     `agentsContext` is `excluded`, and those agents get a 403 for every other URL of the site;
//   - when agents are included: `<page URL>.md`, the page as Markdown, and `llms.txt`, an index of the pages
//     the reader may read linking to their Markdown (https://llmstxt.org).

/**
 * The user agents of AI crawlers and assistants that fetch pages for a model (training, search or a user's
 * question), as their operators document them. Matched as whole tokens of the User-Agent header.
 */
export const AI_AGENTS = [
  'GPTBot',
  'ChatGPT-User',
  'OAI-SearchBot',
  'ClaudeBot',
  'Claude-User',
  'Claude-SearchBot',
  'anthropic-ai',
  'Google-Extended',
  'Google-CloudVertexBot',
  'Applebot-Extended',
  'PerplexityBot',
  'Perplexity-User',
  'CCBot',
  'Bytespider',
  'Amazonbot',
  'meta-externalagent',
  'meta-externalfetcher',
  'FacebookBot',
  'cohere-ai',
  'cohere-training-data-crawler',
  'MistralAI-User',
  'Diffbot',
  'YouBot',
  'DuckAssistBot',
  'AI2Bot',
  'Timpibot',
  'omgili',
] as const;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const aiAgentPattern = new RegExp(`(^|[^a-z0-9-])(${AI_AGENTS.map(escapeRegExp).join('|')})([^a-z0-9-]|$)`, 'i');

/** Whether a User-Agent header names one of the known AI crawlers or assistants. */
export function isAiAgent(userAgent: string | undefined): boolean {
  return userAgent !== undefined && aiAgentPattern.test(userAgent);
}

/** The robots.txt of a site: `indexable` (public) sites list their sitemap; excluded agents are disallowed by name. */
export function robotsTxt(options: { indexable: boolean; agentsExcluded: boolean; sitemapUrl: string; llmsUrl?: string }): string {
  const lines: string[] = [];
  if (options.agentsExcluded) {
    lines.push('# AI agents may not read this site (agentsContext: excluded).');
    for (const agent of AI_AGENTS) lines.push(`User-agent: ${agent}`);
    lines.push('Disallow: /', '');
  }
  lines.push('User-agent: *', options.indexable ? 'Allow: /' : 'Disallow: /');
  if (options.indexable) lines.push(`Sitemap: ${options.sitemapUrl}`);
  return `${lines.join('\n')}\n`;
}

/** The page as Markdown: its title as a heading (unless the content opens with the same one), its description, its content. */
export function pageMarkdown(page: { title: string; description?: string; markdown: string }): string {
  const body = page.markdown.replace(/^\s+/, '');
  const opening = /^#\s+(.+?)\s*#*\s*(\n|$)/.exec(body)?.[1];
  const head = opening !== undefined && sameTitle(opening, page.title) ? [] : [`# ${page.title}`, ''];
  const description = page.description ? [`> ${page.description.replace(/\n/g, ' ')}`, ''] : [];
  return `${[...head, ...description, body.trimEnd()].join('\n')}\n`;
}

/** Whether a heading's text is the page's title (case, spaces and emphasis aside). */
export function sameTitle(heading: string, title: string): boolean {
  const plain = (text: string) => text.replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
  return plain(heading) === plain(title);
}

export interface LlmsSection {
  title: string;
  pages: { title: string; url: string; description?: string }[];
}

/** The llms.txt of a site: its title, then one list of pages (linking to their Markdown) per site space. */
export function llmsTxt(title: string, sections: LlmsSection[]): string {
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
  const out = [`# ${oneLine(title)}`, ''];
  for (const section of sections) {
    out.push(`## ${oneLine(section.title)}`, '');
    for (const page of section.pages) {
      const label = oneLine(page.title).replace(/[[\]]/g, '\\$&');
      // The URL's segments are escaped already; parentheses would end a Markdown link early.
      const url = page.url.replace(/\(/g, '%28').replace(/\)/g, '%29');
      out.push(`- [${label}](${url})${page.description ? `: ${oneLine(page.description)}` : ''}`);
    }
    out.push('');
  }
  return out.join('\n');
}
