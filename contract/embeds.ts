// What an embed block shows (GET /spaces/{spaceId}/embed?url=): the page's oEmbed answer where its
// provider offers one, else its Open Graph and HTML metadata (docs/headless-reads.md).
import { access } from './access.js';
import { operations } from './operation.js';
import { SpaceIdParams } from './spaces.js';
import { z } from './zod.js';
import { conditional } from './conditional.js';

export const embedExample = {
  type: 'link' as const,
  title: 'Getting started with the CLI',
  site: 'Acme Blog',
  icon: 'https://blog.acme.example/favicon.ico',
};

const common = {
  title: z.string().openapi({ description: 'Title of the page (oEmbed `title`, `og:title` or `<title>`; the URL when it has none).' }),
  site: z.string().openapi({ description: 'Who provides it (oEmbed `provider_name`, `og:site_name`; the host name when neither is given).' }),
  icon: z.string().openapi(conditional('An image standing for it: the page\'s icon (`<link rel="icon">`), else oEmbed `thumbnail_url` or `og:image`; absent when it has none.')).optional(),
};

export const Embed = z
  .discriminatedUnion('type', [
    z.object({ ...common, type: z.literal('link').openapi({ description: 'Shown as a card linking to the URL.' }) }),
    z.object({
      ...common,
      type: z.literal('rich'),
      html: z.string().openapi({
        description:
          'The provider\'s HTML (oEmbed `html`), sanitized: no script, no event handlers, and iframes only from the providers ' +
          'this server allows (YouTube, Vimeo, Loom, Figma, CodePen, CodeSandbox, Spotify, SoundCloud, Google Maps, Miro, Twitch); ' +
          'from any other provider the answer is a `link`.',
      }),
    }),
  ])
  .openapi('Embed', { description: 'What an embed block of a URL shows.', example: embedExample });

export const embedOperations = operations({
  getEmbedByUrlInSpace: {
    method: 'get',
    path: '/spaces/{spaceId}/embed',
    tag: 'content',
    summary: 'Get what an embed of a URL shows',
    description:
      'Fetches the page at `url` (http or https, public addresses only) and answers what an embed block of it shows: the ' +
      'provider\'s oEmbed answer when the page announces one (`<link rel="alternate" type="application/json+oembed">`), ' +
      'else its Open Graph and HTML metadata. Answers are kept for an hour (a failure for a minute), so a published page ' +
      'showing the embed makes no request of its own. A URL that cannot be fetched (refused address, timeout, more than ' +
      '1 MB, not HTML) is still an embed: a `link` titled with the URL. 400 when `url` is not an http(s) URL; 404 when the ' +
      'space does not exist or the caller cannot read it.',
    params: SpaceIdParams,
    query: z.object({
      url: z.url({ protocol: /^https?$/ }).max(2048).openapi({ description: 'The URL to embed: http or https.', example: 'https://blog.acme.example/getting-started' }),
    }),
    responses: { 200: { description: 'What the embed shows.', schema: Embed, example: embedExample } },
    errors: [400, 404],
    access: access.space('read'),
    statements: 1,
  },
});
