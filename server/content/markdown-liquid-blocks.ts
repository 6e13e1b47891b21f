// GitBook's tags for blocks that hold no Markdown of their own, read into GitBook's Document blocks and
// written back as GitBook's Git Sync writes them:
//
//   {% prompt description="…" icon="…" %}        a `prompt`: its one code block between the tags
//   {% if visitor.claims.unsigned.beta %} … {% endif %}   an `if`: its expression and its blocks
//   {% openapi src="…" path="/pet" method="post" %}   a `swagger` block (an operation of a specification at
//   [https://…](https://…)                             a URL or in a file), the link to the specification
//   {% endopenapi %}                                   between the tags
//   {% openapi-operation spec="petstore" path="…" method="…" %}   an `openapi-operation` of a specification
//   {% openapi-webhook spec="petstore" name="newPet" method="post" %}   an `openapi-webhook`
//   {% openapi-schemas spec="petstore" schemas="Pet,Order" grouped="false" %}   `openapi-schemas`
//   {% @github-files/github-code-block url="…" %}  an `integration` block: integration, block, props
//
// The tags themselves are read by markdown-liquid.ts; their attributes are typed by
// markdown-liquid-attributes.ts. What a tag holds besides (the specification's link, a schemas block's
// caption) is GitBook's own rendering of the block and is written again from the block.
import type * as Md from 'mdast';
import type { DocumentBlockShape as Block } from '../../contract/document.js';
import {
  operationAttributes,
  promptAttributes,
  readAttributes,
  schemasAttributes,
  swaggerAttributes,
  webhookAttributes,
  withKept,
  writeAttributes,
} from './markdown-liquid-attributes.js';
import type { HtmlReader, HtmlWriter } from './markdown-html-mdast.js';
import type { AttributeForm, Liquid } from './markdown-liquid.js';
import type { ContentRefValue } from './markdown-refs.js';

const liquid = (name: Liquid['name'], attributes: Record<string, string>, children: Md.RootContent[]): Md.RootContent =>
  ({ type: 'liquid', name, attributes, children }) as Liquid;

function textOf(nodes: Block['nodes']): string {
  return (nodes ?? []).map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : textOf(n.nodes as Block['nodes']))).join('');
}

/** Lines of text as a code block. */
function codeBlock(text: string): Block {
  const lines = text.split('\n').map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: line === '' ? [] : [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }] }));
  return { object: 'block', type: 'code', data: {}, nodes: lines } as Block;
}

/** The block of a tag of this module's; undefined for any other tag. */
export function liquidTagBlock(node: Liquid, reader: HtmlReader): Block | undefined {
  const a = node.attributes;
  switch (node.name) {
    case 'prompt': {
      // A prompt holds one code block; what else GitBook's tag may hold is that block's text.
      const inner = reader.blocks(node.children);
      const code = inner.length === 1 && inner[0].type === 'code' ? inner[0] : codeBlock(inner.map((b) => textOf(b.nodes)).join('\n\n'));
      const { data, kept } = readAttributes(promptAttributes, a);
      return withKept({ object: 'block', type: 'prompt', data: { description: '', ...data }, nodes: [code] } as Block, kept);
    }
    case 'if':
      return { object: 'block', type: 'if', data: { expression: a.expression ?? '' }, nodes: reader.blocks(node.children) } as Block;
    case 'openapi': {
      const { src = '', ...rest } = a;
      const read = reader.ref(src);
      // The specification is a file of the space or a URL (GitBook's schema allows no other).
      const ref = read?.kind === 'file' ? read : { kind: 'url' as const, url: src };
      const { data, kept } = readAttributes(swaggerAttributes, rest);
      return withKept({ object: 'block', type: 'swagger', isVoid: true, data: { ref, path: '', method: '', ...data } } as Block, kept);
    }
    case 'openapi-operation': {
      const { spec = '', ...rest } = a;
      const { data, kept } = readAttributes(operationAttributes, rest);
      return withKept({ object: 'block', type: 'openapi-operation', isVoid: true, data: { ref: { kind: 'openapi', spec }, path: '', method: '', ...data } } as Block, kept);
    }
    case 'openapi-webhook': {
      const { spec = '', ...rest } = a;
      const { data, kept } = readAttributes(webhookAttributes, rest);
      return withKept({ object: 'block', type: 'openapi-webhook', isVoid: true, data: { ref: { kind: 'openapi', spec }, name: '', method: '', ...data } } as Block, kept);
    }
    case 'openapi-schemas': {
      const { spec = '', ...rest } = a;
      const { data, kept } = readAttributes(schemasAttributes, rest);
      return withKept({ object: 'block', type: 'openapi-schemas', isVoid: true, data: { ref: { kind: 'openapi', spec }, schemas: [], ...data } } as Block, kept);
    }
    default: {
      const integration = /^@([^/]+)\/(.+)$/.exec(node.name);
      if (!integration) return undefined;
      // An unquoted prop is its JSON value (`count=3`, `tags=["a"]`), a flag alone `true`.
      const props = Object.fromEntries(Object.entries(a).map(([name, text]) => [name, node.forms?.[name] === 'bare' ? true : name in (node.values ?? {}) ? node.values![name] : text]));
      return { object: 'block', type: 'integration', isVoid: true, data: { integration: integration[1], block: integration[2], props } } as Block;
    }
  }
}

/**
 * `[label](url)`, as GitBook writes the link to a specification (mdast-util-to-markdown would write a URL
 * that is its own label as `<url>`): the label's brackets escaped, the URL's spaces and parentheses encoded.
 */
function resourceLink(label: string, url: string): string {
  const text = label.replace(/[\\[\]]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
  const target = url.replace(/[\s()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `[${text}](${target})`;
}

const integrationPart = /^[a-z0-9][a-z0-9_-]*$/i;

/**
 * Props as tag attributes: a text `name="…"`; a prop that is none (a number, a boolean, an object, a list)
 * its JSON without quotes (`count=3`, `tags=["a","b"]`), a `%` in it written `\u0025` so that no `%}` ends the tag.
 */
function propsAttributes(props: unknown): { attributes: Record<string, string>; forms: Record<string, AttributeForm> } {
  const attributes: Record<string, string> = {};
  const forms: Record<string, AttributeForm> = {};
  if (!props || typeof props !== 'object') return { attributes, forms };
  for (const [name, v] of Object.entries(props)) {
    if (!/^[A-Za-z][\w-]*$/.test(name) || v === undefined) continue;
    if (typeof v === 'string') attributes[name] = v;
    else {
      attributes[name] = JSON.stringify(v).replace(/%/g, '\\u0025');
      forms[name] = 'unquoted';
    }
  }
  return { attributes, forms };
}

/** This module's blocks as their tags (Markdown); undefined for any other block. */
export function liquidTagMarkdown(b: Block, writer: HtmlWriter): Md.RootContent[] | undefined {
  const data = (b.data ?? {}) as Record<string, unknown>;
  const blocks = (b.nodes ?? []).filter((n): n is Block => n.object === 'block');
  switch (b.type) {
    case 'prompt':
      return [liquid('prompt', writeAttributes(promptAttributes, b), writer.blocks(blocks))];
    case 'if':
      return [liquid('if', { expression: typeof data.expression === 'string' ? data.expression : '' }, writer.blocks(blocks))];
    case 'swagger': {
      const ref = data.ref as ContentRefValue;
      const url = writer.ref(ref);
      const label = ref?.kind === 'url' ? url : writer.label(ref);
      return [liquid('openapi', { src: url, ...writeAttributes(swaggerAttributes, b) }, [{ type: 'html', value: resourceLink(label, url) }])];
    }
    case 'openapi-operation':
    case 'openapi-webhook':
    case 'openapi-schemas': {
      const spec = (data.ref as { spec?: unknown } | undefined)?.spec;
      const attributeSpec = { 'openapi-operation': operationAttributes, 'openapi-webhook': webhookAttributes, 'openapi-schemas': schemasAttributes }[b.type];
      const attributes = writeAttributes(attributeSpec, b);
      return [liquid(b.type, { spec: typeof spec === 'string' ? spec : '', ...attributes }, [])];
    }
    case 'integration': {
      const { integration, block } = data as { integration?: unknown; block?: unknown };
      // A name the tag syntax cannot hold is written as nothing GitBook would read wrongly.
      if (typeof integration !== 'string' || typeof block !== 'string' || !integrationPart.test(integration) || !integrationPart.test(block)) return [];
      const { attributes, forms } = propsAttributes(data.props);
      return [{ ...(liquid(`@${integration}/${block}`, attributes, []) as Liquid), forms }];
    }
    default:
      return undefined;
  }
}
