// The built-in templates `applyTemplateToSpace` applies: small page trees of real Markdown. A template
// names the content references it can use (`params.contentRefs`); its pages link to each other with
// `{{page:<key>}}`, replaced by the final path of that page once the template's slugs are settled.
import type { components } from '../../generated/types.js';

type ContentRef = components['schemas']['ContentRef'];

export interface TemplatePage {
  /** Name other pages of the template link to (`{{page:key}}`). */
  key: string;
  title: string;
  description?: string;
  emoji?: string;
  /** Markdown; `{{ref:name}}` becomes a link to the content reference `name` (or a sentence saying there is none). */
  markdown: string;
  pages?: TemplatePage[];
}

export interface TemplateRef {
  /** The kinds of content reference accepted. */
  kinds: ContentRef['kind'][];
  /** How the link reads. */
  label: string;
  required: boolean;
}

export interface Template {
  id: string;
  title: string;
  refs: Record<string, TemplateRef>;
  pages: TemplatePage[];
}

const gettingStarted: Template = {
  id: 'getting-started',
  title: 'Getting started',
  refs: {},
  pages: [
    {
      key: 'welcome',
      title: 'Welcome',
      emoji: '1f44b',
      description: 'What this documentation covers and where to begin.',
      markdown:
        '# Welcome\n\nThis space documents the product: what it does, how to set it up and how to get help.\n\n' +
        '## Where to begin\n\n- New here? Follow the [Quickstart]({{page:quickstart}}).\n' +
        '- Stuck? Read the [frequently asked questions]({{page:faq}}).\n',
    },
    {
      key: 'quickstart',
      title: 'Quickstart',
      description: 'Up and running in five minutes.',
      markdown:
        '# Quickstart\n\n## Install\n\nInstall the command-line tool with your package manager.\n\n```sh\nnpm install --global example-cli\n```\n\n' +
        '## Sign in\n\nRun `example-cli login` and follow the link it prints.\n\n## Next steps\n\nSee the [FAQ]({{page:faq}}) for common questions.\n',
    },
    {
      key: 'faq',
      title: 'FAQ',
      description: 'Frequently asked questions.',
      markdown:
        '# FAQ\n\n## How do I reset my password?\n\nUse the "Forgot password" link on the sign-in page.\n\n' +
        '## Where do I report a bug?\n\nOpen an issue with the steps to reproduce it, what you expected and what happened.\n',
    },
  ],
};

const apiReference: Template = {
  id: 'api-reference',
  title: 'API reference',
  refs: { spec: { kinds: ['openapi', 'url', 'file'], label: 'OpenAPI specification', required: false } },
  pages: [
    {
      key: 'overview',
      title: 'API overview',
      description: 'Base URL, versions and conventions of the API.',
      markdown:
        '# API overview\n\nThe API is organized around REST: resources have predictable URLs, requests and responses are JSON, ' +
        'and errors use standard HTTP status codes.\n\n## Specification\n\n{{ref:spec}}\n\n' +
        '## Before you start\n\nRead [Authentication]({{page:authentication}}) and [Errors]({{page:errors}}).\n',
      pages: [
        {
          key: 'authentication',
          title: 'Authentication',
          description: 'How requests prove who sends them.',
          markdown:
            '# Authentication\n\nEvery request carries a bearer token in the `Authorization` header.\n\n' +
            '```http\nAuthorization: Bearer <token>\n```\n\nA missing or invalid token is answered with `401 Unauthorized`.\n',
        },
        {
          key: 'errors',
          title: 'Errors',
          description: 'Status codes and the error body.',
          markdown:
            '# Errors\n\n| Status | Meaning |\n| --- | --- |\n| 400 | The request is invalid; the message names the field. |\n' +
            '| 401 | The token is missing or invalid. |\n| 404 | The resource does not exist. |\n| 409 | The request conflicts with the current state. |\n',
        },
      ],
    },
  ],
};

const knowledgeBase: Template = {
  id: 'knowledge-base',
  title: 'Knowledge base',
  refs: { support: { kinds: ['url', 'page'], label: 'Contact support', required: false } },
  pages: [
    {
      key: 'how-to',
      title: 'How-to guides',
      description: 'Step-by-step answers to common tasks.',
      markdown: '# How-to guides\n\nEach guide solves one task from start to finish. Start with [Troubleshooting]({{page:troubleshooting}}) when something fails.\n',
    },
    {
      key: 'troubleshooting',
      title: 'Troubleshooting',
      description: 'Known problems and their fixes.',
      markdown:
        '# Troubleshooting\n\n## The page does not load\n\nClear the browser cache and reload.\n\n## Still stuck?\n\n{{ref:support}}\n',
    },
  ],
};

const changelog: Template = {
  id: 'changelog',
  title: 'Changelog',
  refs: {},
  pages: [
    {
      key: 'changelog',
      title: 'Changelog',
      emoji: '1f4dd',
      description: 'What changed, release by release.',
      markdown:
        '# Changelog\n\nAll notable changes are listed here, newest first.\n\n## Unreleased\n\n### Added\n\n- Describe new features here.\n\n' +
        '### Fixed\n\n- Describe bug fixes here.\n',
    },
  ],
};

/** The built-in templates, by id. */
export const templates: ReadonlyMap<string, Template> = new Map([gettingStarted, apiReference, knowledgeBase, changelog].map((t) => [t.id, t]));
