// The fixed content of the demo workspace: names, texts and documents. Nothing here is random, so two
// seeded databases hold the same workspace (only ids and timestamps differ), and screenshots and tests
// can rely on what they show.
import type { Role } from '../auth/roles.js';
import { ROBOT_STATUS_SCRIPT } from './robot-status.bundle.js';

export const DEMO_ORGANIZATION_TITLE = 'Acme Robotics';
/** The title the organization carries while it is being filled: a seed that stopped half-way is recognisable. */
export const DEMO_ORGANIZATION_SEEDING_TITLE = 'Acme Robotics (seeding)';

export interface DemoPerson {
  key: string;
  email: string;
  displayName: string;
  /** Role in the organization; null: a guest. The first person is the owner (admin). */
  role: Role | null;
}

/** One member per role, plus a guest; `ada` owns the organization. */
export const DEMO_PEOPLE: DemoPerson[] = [
  { key: 'ada', email: 'ada@acme-robotics.example', displayName: 'Ada Lovelace', role: 'admin' },
  { key: 'grace', email: 'grace@acme-robotics.example', displayName: 'Grace Hopper', role: 'create' },
  { key: 'linus', email: 'linus@acme-robotics.example', displayName: 'Linus Pauling', role: 'review' },
  { key: 'margaret', email: 'margaret@acme-robotics.example', displayName: 'Margaret Hamilton', role: 'edit' },
  { key: 'alan', email: 'alan@acme-robotics.example', displayName: 'Alan Turing', role: 'comment' },
  { key: 'barbara', email: 'barbara@acme-robotics.example', displayName: 'Barbara Liskov', role: 'read' },
  { key: 'tim', email: 'tim@partner.example', displayName: 'Tim Berners-Lee', role: null },
];
export const DEMO_OWNER = DEMO_PEOPLE[0];

export const DEMO_TEAMS = [
  { title: 'Documentation', members: ['grace', 'margaret', 'alan'] },
  { title: 'Platform engineering', members: ['linus', 'barbara'] },
];

export interface DemoPage {
  title: string;
  markdown: string;
  children?: DemoPage[];
}

export interface DemoSpace {
  key: string;
  title: string;
  emoji: string;
  /** Key of the collection it sits in; absent: top level. */
  collection?: string;
  pages: DemoPage[];
}

/** `guides` sits inside `product`: collections nest. */
export const DEMO_COLLECTIONS = [
  { key: 'product', title: 'Product documentation', description: 'Everything customers read about the robot arm.' },
  { key: 'guides', title: 'Guides', description: 'Task-oriented walkthroughs.', parent: 'product' },
  { key: 'internal', title: 'Internal', description: 'Team handbooks, not published.' },
];

export const DEMO_SPACES: DemoSpace[] = [
  {
    key: 'getting-started',
    title: 'Getting started',
    emoji: '🚀',
    collection: 'guides',
    pages: [
      {
        title: 'Introduction',
        markdown: '# Introduction\n\nThe Acme R2 arm lifts up to 5 kg and is programmed over a REST API.\n',
        children: [
          { title: 'Safety', markdown: '# Safety\n\nAlways press the emergency stop before reaching into the work area.\n' },
        ],
      },
      {
        title: 'Installation',
        markdown: '# Installation\n\n1. Bolt the base to a flat surface.\n2. Connect power and Ethernet.\n3. Open `http://r2.local` to finish the setup.\n',
      },
      { title: 'First program', markdown: '# First program\n\nSend `POST /moves` with a target pose to make the arm move.\n' },
    ],
  },
  {
    key: 'api',
    title: 'API reference',
    emoji: '📘',
    collection: 'product',
    pages: [
      { title: 'Authentication', markdown: '# Authentication\n\nEvery request carries an API token in the `Authorization` header.\n' },
      {
        title: 'Moves',
        markdown: '# Moves\n\nA move takes the arm to a pose. Moves are queued and run in order.\n',
        children: [{ title: 'Poses', markdown: '# Poses\n\nA pose is a position (x, y, z in mm) and an orientation.\n' }],
      },
    ],
  },
  {
    key: 'release-notes',
    title: 'Release notes',
    emoji: '📣',
    pages: [{ title: 'Version 2.4', markdown: '# Version 2.4\n\n- Faster homing.\n- New `GET /status` endpoint.\n' }],
  },
  {
    key: 'handbook',
    title: 'Team handbook',
    emoji: '📒',
    collection: 'internal',
    pages: [{ title: 'Writing style', markdown: '# Writing style\n\nWrite short sentences. Address the reader as "you".\n' }],
  },
];

/** One change request per status; the merged one adds a page to the space it is opened on. */
export const DEMO_CHANGE_REQUESTS = [
  { space: 'getting-started', subject: 'Add a troubleshooting page', status: 'merged', by: 'margaret', page: { title: 'Troubleshooting', markdown: '# Troubleshooting\n\nIf the arm does not home, check the power cable.\n' } },
  { space: 'getting-started', subject: 'Explain calibration', status: 'open', by: 'margaret', page: { title: 'Calibration', markdown: '# Calibration\n\nRun the calibration wizard after every firmware update.\n' } },
  { space: 'api', subject: 'Document rate limits', status: 'draft', by: 'grace', page: { title: 'Rate limits', markdown: '# Rate limits\n\nAt most 100 requests a minute per token.\n' } },
  { space: 'release-notes', subject: 'Draft notes for 2.5', status: 'archived', by: 'grace', page: { title: 'Version 2.5', markdown: '# Version 2.5\n\nTo be announced.\n' } },
] as const;

/** Comments on the first page of a space, each with its replies (by person key). */
export const DEMO_COMMENTS = [
  {
    space: 'getting-started',
    by: 'alan',
    markdown: 'Should the safety page mention the **light curtain**?',
    replies: [
      { by: 'margaret', markdown: 'Good idea, I will add a paragraph.' },
      { by: 'alan', markdown: 'Thanks!' },
    ],
  },
  { space: 'api', by: 'linus', markdown: 'The token format changed in 2.4; please update the example.', replies: [{ by: 'grace', markdown: 'Done in the next change request.' }] },
];

export const DEMO_SITE = {
  title: 'Acme Robotics Docs',
  sections: [
    { title: 'Guides', space: 'getting-started', icon: 'book-open' },
    { title: 'API', space: 'api', icon: 'code' },
  ],
  /** Published in the default section as a second site space. */
  extraSpace: 'release-notes',
};

export const DEMO_INTEGRATION = {
  name: 'acme-robotics-status',
  definition: {
    title: 'Robot status',
    description: 'Shows the live status of your robot arms on your docs site.',
    visibility: 'private' as const,
    target: 'site' as const,
    scopes: ['site:metadata:read' as const, 'site:script:inject' as const],
    categories: ['other' as const],
    // Written with @gitbook/runtime (scripts/demo-integration/robot-status.ts), bundled as @gitbook/cli does.
    runtime: 'v2' as const,
    script: ROBOT_STATUS_SCRIPT,
    configurations: { site: { properties: { statusPage: { type: 'string' as const, title: 'Status page', description: 'Where the banner links to.' } } } },
    contentSecurityPolicy: { 'connect-src': 'https://status.acme-robotics.example.com' },
  },
  /** The site installation's configuration. */
  siteConfiguration: { statusPage: 'https://status.acme-robotics.example.com/arms' },
};

/** Two versions of the same small API description, given as text (no network needed). */
export const DEMO_OPENAPI = {
  slug: 'robot-arm-api',
  versions: ['1.0.0', '1.1.0'].map((version) =>
    [
      'openapi: 3.1.0',
      'info:',
      '  title: Acme R2 arm API',
      `  version: ${version}`,
      'paths:',
      '  /moves:',
      '    post:',
      '      operationId: createMove',
      '      summary: Queue a move',
      '      responses:',
      "        '202':",
      '          description: The move is queued.',
      ...(version === '1.1.0'
        ? ['  /status:', '    get:', '      operationId: getStatus', '      summary: The arm status', '      responses:', "        '200':", '          description: The status.']
        : []),
      '',
    ].join('\n'),
  ),
};

export const DEMO_TRANSLATION = { space: 'getting-started', from: 'en' as const, to: 'fr' as const };

/**
 * The French of every text of the translated space (its title, page titles and the text nodes of its pages),
 * used as a translation memory when the seed runs without a translator (TRANSLATOR_KIND=copy), so the demo
 * shows a translated space; the run then reports the `memory` provider.
 */
export const DEMO_FRENCH: Record<string, string> = {
  'Getting started': 'Premiers pas',
  Introduction: 'Introduction',
  'The Acme R2 arm lifts up to 5 kg and is programmed over a REST API.': 'Le bras Acme R2 soulève jusqu’à 5 kg et se programme par une API REST.',
  Safety: 'Sécurité',
  'Always press the emergency stop before reaching into the work area.': 'Appuyez toujours sur l’arrêt d’urgence avant d’entrer dans la zone de travail.',
  Installation: 'Installation',
  'Bolt the base to a flat surface.': 'Boulonnez la base sur une surface plane.',
  'Connect power and Ethernet.': 'Branchez l’alimentation et l’Ethernet.',
  Open: 'Ouvrez',
  'to finish the setup.': 'pour terminer la configuration.',
  'First program': 'Premier programme',
  Send: 'Envoyez',
  'with a target pose to make the arm move.': 'avec une pose cible pour faire bouger le bras.',
  Troubleshooting: 'Dépannage',
  'If the arm does not home, check the power cable.': 'Si le bras ne revient pas en position d’origine, vérifiez le câble d’alimentation.',
  'After a firmware update, run the homing routine once from the setup page.':
    'Après une mise à jour du micrologiciel, lancez une fois la mise en position d’origine depuis la page de configuration.',
};

/**
 * The change request that addresses the issues cluster of a conversation (by id), merged: the cluster is
 * then resolved. It rewrites a page of the space (by title).
 */
export const DEMO_CLUSTER_TASK = {
  conversation: 'demo-conversation-2',
  space: 'getting-started',
  subject: 'Explain homing after a firmware update',
  page: 'Troubleshooting',
  markdown: '# Troubleshooting\n\nIf the arm does not home, check the power cable.\n\nAfter a firmware update, run the homing routine once from the setup page.\n',
};

/** Questions readers asked the support assistant; ingested as conversations, then clustered. */
export const DEMO_CONVERSATIONS = [
  { id: 'demo-conversation-1', subject: 'Arm does not home', body: 'After unboxing, the arm does not move to its home position. What should I check?' },
  { id: 'demo-conversation-2', subject: 'Homing fails after update', body: 'Since the firmware update the arm does not home any more.' },
  { id: 'demo-conversation-3', subject: 'API token rotation', body: 'How do I rotate the API token of a robot without downtime?' },
];
