// Rendering an integration's ContentKit component (renderIntegrationUIWithPost, and renderIntegrationUIWithGet:
// the same request in the URL, which a browser or a CDN may cache): what GitBook's editor and renderer ask when
// they show an integration block or a configuration screen built from a component.
import { access } from './access.js';
import { exampleIntegrationName, integrationNamePattern } from './integration-schemas.js';
import { operations } from './operation.js';
import { z } from './zod.js';

const theme = z.enum(['dark', 'light']);
const plainObject = z.record(z.string(), z.unknown());

const ContentKitContext = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('document'), theme, spaceId: z.string().min(1).max(128), editable: z.boolean() }),
    z.object({ type: z.literal('configuration_account'), theme, organizationId: z.string().min(1).max(128) }),
    z.object({ type: z.literal('configuration_space'), theme, spaceId: z.string().min(1).max(128) }),
    z.object({ type: z.literal('configuration_site'), theme, siteId: z.string().min(1).max(128) }),
  ])
  .openapi('ContentKitContext', {
    description:
      'Where the component is rendered: in a document of a space (an `integration` block), or in the configuration ' +
      'of the installation in an organization, on a space or on a site.',
  });

export const RenderIntegrationUI = z
  .strictObject({
    componentId: z.string().min(1).max(200).openapi({ description: 'ID of the component to render in the integration.' }),
    props: plainObject.openapi({ description: 'Current properties of the UI.' }),
    state: plainObject.optional().openapi({ description: 'Current local state of the UI.' }),
    context: ContentKitContext,
    action: z.looseObject({ action: z.string().min(1).max(200) }).optional().openapi({ description: 'The action that makes the UI render again.' }),
  })
  .openapi('RenderIntegrationUI');

const ContentKitRenderOutput = z
  .union([
    z.object({
      type: z.literal('element'),
      element: z.looseObject({ type: z.string() }).openapi({ description: 'The ContentKit tree (a `block`, `modal` or `configuration` root element).' }),
      state: plainObject,
      props: plainObject,
    }),
    z.object({ type: z.literal('complete'), returnValue: plainObject.optional() }),
  ])
  .openapi('ContentKitRenderOutput', { description: 'Output of the integration when rendering a UI.' });

const renderParams = z.object({
  integrationName: z.string().min(1).max(128).regex(integrationNamePattern).openapi({ description: 'The name of the integration.', example: exampleIntegrationName }),
});

const renderBodyExample = { componentId: 'diagram', props: { content: 'graph TD\n  A --> B' }, context: { type: 'document', theme: 'light', spaceId: 'sp_01JD3QF6V0K2N8W', editable: false } };
/** renderBodyExample as renderIntegrationUIWithGet's `request`: its JSON compressed by LZ-string's compressToEncodedURIComponent. */
const renderRequestExample =
  'N4Igxg9gtgDhB2BTeAXAkgExALhBglgIYDmAToVCADQgykQwDOOokqyKOIZhMAFgAIAKgBEAOvAECAggIC0cgHwCAQiAC+NNikQAPTtlAoAnjERcMEMAFcoHaiBR9EdrgBt8xPpxqMYhMERMLj8AfQAGAEYAKREAZgBFADEANgA1cIBpACYAOQAOAHUHRAIUQgAjN3NsADNCN0ZEdXUgA';

const renderOutputResponse = {
  description: 'ContentKit element to render.',
  schema: ContentKitRenderOutput,
  example: { type: 'element', element: { type: 'block', children: [{ type: 'markdown', content: '**A** leads to **B**' }] }, state: { content: 'graph TD\n  A --> B' }, props: { content: 'graph TD\n  A --> B' } },
  headers: { 'Cache-Control': { description: 'How long the output may be kept, as the component asked.', example: 'max-age=3600' } },
};

export const integrationUiOperations = operations({
  renderIntegrationUIWithPost: {
    method: 'post',
    path: '/integrations/{integrationName}/render',
    tag: 'integrations',
    summary: 'Render an integration UI with POST method',
    description:
      'Runs the integration\'s component `componentId` (its script gets a `ui_render` event with `props`, `state`, ' +
      '`context` and `action`, and the environment of the installation concerned) and answers its ContentKit output, ' +
      'with the `Cache-Control` the component asked for. The installation is the integration\'s on the space of a ' +
      '`document` or `configuration_space` context, on the site of a `configuration_site` one, in the organization of a ' +
      '`configuration_account` one: a document needs the `read` role on its space; a configuration screen the admin ' +
      'role in the organization (403 otherwise). An unknown integration, space, site or organization, or one the ' +
      'caller cannot see, or an integration not installed there, is not found. A component the script refuses ' +
      '(unknown to it, or its own 4xx) is a 400 with the script\'s reason; a script that fails or answers something ' +
      'else than a render output is a 503 naming the reason.',
    params: renderParams,
    body: RenderIntegrationUI,
    bodyExample: renderBodyExample,
    responses: { 200: renderOutputResponse },
    errors: [400, 403, 404],
    access: access.caller(),
    // 1: the grant of the context's space or organization (a site's screen: of the site's organization, found
    // from the site in the same statement), with the integration, the installation covering the context and the
    // script's row read in it (the integration's and its owner's columns when they changed since this process
    // read them), and what the script's environment carries that this process does not hold for that
    // installation written in it for a caller the rule lets through (the installation's and the integration's
    // tokens, each with its bot user found or made and the expired ones removed; the integration's signing
    // secret read or made). A caller refused with a 403 is answered from it too (an integration they cannot
    // see is a 404 first).
    statements: 1,
  },
  renderIntegrationUIWithGet: {
    method: 'get',
    path: '/integrations/{integrationName}/render',
    tag: 'integrations',
    summary: 'Render an integration UI with GET method',
    description:
      'renderIntegrationUIWithPost with its request in the URL: `request` is the RenderIntegrationUI body\'s JSON compressed ' +
      'with LZ-string (`compressToEncodedURIComponent`, as GitBook\'s renderer sends it), so the answer can be cached by URL ' +
      'as the component\'s `Cache-Control` allows. Everything else is as with POST: the installation and the access it ' +
      'needs, the script\'s `ui_render` event, the output and its `Cache-Control`, the errors. A `request` that does not ' +
      'decompress to JSON is a 400 naming `query.request`; a request that is not a valid body, a 400 naming its field ' +
      '(`query.request.componentId`…).',
    params: renderParams,
    query: z.object({
      request: z
        .string()
        .min(1)
        // LZ-string output may grow quadratically with its input, and the URL must stay within a request line
        // every server takes (16 KiB in Node, even with each character percent-encoded): a bigger request is a POST.
        .max(1500)
        .openapi({ description: 'LZ-string compressed JSON request (a RenderIntegrationUI body, `compressToEncodedURIComponent`), at most 1,500 characters: a bigger one is sent with POST.', example: renderRequestExample }),
    }),
    responses: { 200: renderOutputResponse },
    errors: [400, 403, 404],
    access: access.caller(),
    // As renderIntegrationUIWithPost.
    statements: 1,
  },
});
