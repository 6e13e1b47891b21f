// GitBook's `{% %}` tags as its own Git Sync writes them (its Markdown documentation: blocks/code, updates,
// tabs, hint, prompt, conditional content, OpenAPI, integrations), read into real Document blocks with
// their attributes typed as GitBook's schema has them, and written back in GitBook's form
// (server/content/markdown-liquid*.ts). Each fixture is one construct: its Document validates against
// GitBook's JSONDocument, no text leaf holds tag or HTML syntax, the Markdown written back is the fixture,
// and reading it again gives the same Document.
import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument, type Document } from '../server/content/markdown-document.js';
import { gitbookDocumentErrors } from './support/gitbook-document.js';
import { leavesOf, rawSyntax, readChecked } from './support/gitbook-markdown-check.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const read = (markdown: string): Json => readChecked(markdown) as Json;

const lines = (...l: string[]) => l.join('\n');
const text = (nodes: Json[] = []) => leavesOf(nodes).join('');

describe('GitBook tags: attributes typed as GitBook has them', () => {
  it('code: expandable and line numbers are booleans, the line count an integer', () => {
    const document = read(lines('{% code title="docs.yaml" lineNumbers="true" expandable="true" collapsedLineCount="4" %}', '```yaml', 'root: ./docs/', '```', '{% endcode %}'));
    expect(document.nodes[0]).toMatchObject({ type: 'code', data: { syntax: 'yaml', title: 'docs.yaml', lineNumbers: true, expandable: true, collapsedLineCount: 4 } });
  });

  it('code: a value its type does not read is kept aside, data staying valid', () => {
    const document = read(lines('{% code overflow="sideways" expandable="maybe" %}', '```', 'x', '```', '{% endcode %}'));
    expect(document.nodes[0].data).toEqual({});
    expect(document.nodes[0].meta).toEqual({ attributes: { overflow: 'sideways', expandable: 'maybe' } });
  });

  it('updates: the format an enum, an update its date a timestamp and its tags tag references', () => {
    const document = read(
      lines('{% updates format="numeric" %}', '{% update date="2025-12-25" tags="beta,api" %}', '## A new feature', '', 'Shipped.', '{% endupdate %}', '{% endupdates %}'),
    );
    expect(document.nodes[0]).toMatchObject({ type: 'updates', data: { format: 'numeric' } });
    expect(document.nodes[0].nodes[0]).toMatchObject({
      type: 'update',
      data: { date: '2025-12-25T00:00:00.000Z', tags: [{ kind: 'tag', tag: 'beta' }, { kind: 'tag', tag: 'api' }] },
    });
  });

  it('updates: a format GitBook does not have is kept aside, the block taking its default', () => {
    const document = read(lines('{% updates format="full" fancy="yes" %}', '{% update date="2024-01-15" %}', 'Shipped.', '{% endupdate %}', '{% endupdates %}'));
    expect(document.nodes[0]).toMatchObject({ type: 'updates', data: { format: 'full' }, meta: { attributes: { fancy: 'yes' } } });
  });

  it('tab: title and icon', () => {
    const document = read(lines('{% tabs %}', '{% tab title="Windows" icon="windows" %}', 'For Windows.', '{% endtab %}', '', '{% tab title="Linux" icon="linux" %}', 'For Linux.', '{% endtab %}', '{% endtabs %}'));
    expect(document.nodes[0].nodes.map((t: Json) => t.data)).toEqual([
      { title: 'Windows', icon: 'windows' },
      { title: 'Linux', icon: 'linux' },
    ]);
  });

  it('hint: style and icon', () => {
    const document = read(lines('{% hint style="info" icon="books" %}', 'Read the guide.', '{% endhint %}'));
    expect(document.nodes[0]).toMatchObject({ type: 'hint', data: { style: 'info', icon: 'books' } });
  });
});

describe('GitBook tags: blocks Markdown has no syntax for', () => {
  it('prompt: its description, icon, provider menu and how much shows, around its one code block', () => {
    const document = read(
      lines('{% prompt description="Example prompt" icon="rectangle-terminal" openInAIProviders="true" defaultExpanded="full" %}', '```markdown', 'Summarize the release.', '```', '{% endprompt %}'),
    );
    expect(document.nodes[0]).toMatchObject({
      type: 'prompt',
      data: { description: 'Example prompt', icon: 'rectangle-terminal', openInAIProviders: true, defaultExpanded: 'full' },
      nodes: [{ type: 'code', data: { syntax: 'markdown' } }],
    });
  });

  it('prompt: text that is not a code block is the prompt\'s code', () => {
    const document = markdownToDocument(lines('{% prompt description="Ask" %}', 'Explain the error.', '{% endprompt %}'));
    expect(gitbookDocumentErrors(document)).toBeUndefined();
    expect(document.nodes[0]).toMatchObject({ type: 'prompt', data: { description: 'Ask' }, nodes: [{ type: 'code', nodes: [{ type: 'code-line' }] }] });
    expect(leavesOf(document.nodes)).toEqual(['Explain the error.']);
  });

  it('if: a conditional block, its expression as written and its blocks', () => {
    const document = read(
      lines(
        '{% if visitor.claims.unsigned.example_attribute_A %}',
        'Visible **with** attribute A.',
        '{% endif %}',
        '',
        '{% if !visitor.claims.unsigned.example_attribute_A %}',
        'Visible without it.',
        '{% endif %}',
        '',
        '{% if visitor.claims.unsigned.bucket.IF_BLOCK === true %}',
        '## Conditional heading',
        '{% endif %}',
      ),
    );
    expect(document.nodes.map((b: Json) => [b.type, b.data.expression])).toEqual([
      ['if', 'visitor.claims.unsigned.example_attribute_A'],
      ['if', '!visitor.claims.unsigned.example_attribute_A'],
      ['if', 'visitor.claims.unsigned.bucket.IF_BLOCK === true'],
    ]);
    expect(document.nodes[2].nodes[0]).toMatchObject({ type: 'heading-2' });
  });

  it('openapi: an operation of a specification at a URL, the link to it between the tags', () => {
    const url = 'https://petstore3.swagger.io/api/v3/openapi.json';
    const document = read(lines(`{% openapi src="${url}" path="/pet" method="post" %}`, `[${url}](${url})`, '{% endopenapi %}'));
    expect(document.nodes[0]).toEqual({ object: 'block', type: 'swagger', isVoid: true, data: { ref: { kind: 'url', url }, path: '/pet', method: 'post' } });
  });

  it('openapi-operation, openapi-webhook and openapi-schemas: a specification by its slug, schemas a list, grouped a boolean', () => {
    const document = read(
      lines(
        '{% openapi-operation spec="petstore" path="/pet" method="put" %}',
        '',
        '{% openapi-webhook spec="petstore" name="newPet" method="post" %}',
        '',
        '{% openapi-schemas spec="petstore" schemas="Pet,Order" grouped="false" %}',
      ),
    );
    expect(document.nodes).toEqual([
      { object: 'block', type: 'openapi-operation', isVoid: true, data: { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pet', method: 'put' } },
      { object: 'block', type: 'openapi-webhook', isVoid: true, data: { ref: { kind: 'openapi', spec: 'petstore' }, name: 'newPet', method: 'post' } },
      { object: 'block', type: 'openapi-schemas', isVoid: true, data: { ref: { kind: 'openapi', spec: 'petstore' }, schemas: ['Pet', 'Order'], grouped: false } },
    ]);
  });

  it('openapi-schemas: the caption GitBook writes between the tags is the block\'s own', () => {
    const document = markdownToDocument(lines('{% openapi-schemas spec="petstore" schemas="Pet" grouped="false" %}', 'The Pet object', '{% endopenapi-schemas %}'));
    expect(gitbookDocumentErrors(document)).toBeUndefined();
    expect(document.nodes).toHaveLength(1);
    expect(document.nodes[0]).toMatchObject({ type: 'openapi-schemas', data: { schemas: ['Pet'], grouped: false } });
  });

  it('integration: an integration\'s block, its attributes its props', () => {
    const url = 'https://github.com/GitbookIO/gitbook/blob/main/README.md#L1-L5';
    const document = read(lines('Before.', '', `{% @github-files/github-code-block url="${url}" %}`, '', 'After.'));
    expect(document.nodes.map((b: Json) => b.type)).toEqual(['paragraph', 'integration', 'paragraph']);
    expect(document.nodes[1]).toEqual({ object: 'block', type: 'integration', isVoid: true, data: { integration: 'github-files', block: 'github-code-block', props: { url } } });
  });

  it('a tag of these inside another keeps its place: a prompt in a tab, an integration in a hint', () => {
    const document = read(
      lines(
        '{% tabs %}',
        '{% tab title="Claude" icon="claude" %}',
        '{% prompt description="Set up" %}',
        '```',
        'Create a site.',
        '```',
        '{% endprompt %}',
        '{% endtab %}',
        '{% endtabs %}',
        '',
        '{% hint style="warning" %}',
        '{% @mermaid/diagram content="graph TD; A-->B" %}',
        '{% endhint %}',
      ),
    );
    expect(document.nodes[0].nodes[0].nodes[0]).toMatchObject({ type: 'prompt', data: { description: 'Set up' } });
    expect(document.nodes[1].nodes[0]).toMatchObject({ type: 'integration', data: { integration: 'mermaid', block: 'diagram', props: { content: 'graph TD; A-->B' } } });
  });

  it('for the published site, a prompt is its code and a condition its blocks (the site renders no such tag)', () => {
    const document = markdownToDocument(
      lines('{% prompt description="Ask" %}', '```', 'Explain.', '```', '{% endprompt %}', '', '{% if visitor.claims.signed %}', 'Hi', '{% endif %}'),
    );
    expect(documentToMarkdown(document, undefined, { site: true })).toBe(lines('```', 'Explain.', '```', '', 'Hi'));
  });

  it('blocks made through the API are written as their tags', () => {
    const document = {
      object: 'document' as const,
      nodes: [
        { object: 'block', type: 'integration', isVoid: true, data: { integration: 'runkit', block: 'notebook', props: { height: 300, source: 'x' } } },
        { object: 'block', type: 'if', data: { expression: 'visitor.claims.signed' }, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hi', marks: [] }] }] }] },
      ],
    } as unknown as Document;
    expect(documentToMarkdown(document)).toBe(lines('{% @runkit/notebook height=300 source="x" %}', '', '{% if visitor.claims.signed %}', 'Hi', '{% endif %}'));
    expect(markdownToDocument(documentToMarkdown(document)).nodes[0].data).toEqual(document.nodes[0].data);
  });
});

describe('GitBook tags: attributes in the forms they come in', () => {
  /** The Markdown of `document` with `change` made to its first block's data, else with the paragraph "Edit me." replaced. */
  const edited = (document: Json, change?: (data: Json) => Json) =>
    documentToMarkdown({
      ...document,
      nodes: document.nodes.map((b: Json, i: number) => (change ? (i === 0 ? { ...b, data: change(b.data) } : b) : text([b]) === 'Edit me.' ? markdownToDocument('Edited.').nodes[0] : b)),
    } as Document);

  it('integration props that are no text: JSON without quotes, read back to the same values', () => {
    const source = lines('{% @acme/chart count=3 ratio=0.5 enabled=true legend=false options={"stacked":true,"colors":["#f00","blue green"]} series=["a","b"] title="Sales Q1" %}', '', 'Edit me.');
    const document = read(source);
    expect(document.nodes[0].data).toEqual({
      integration: 'acme',
      block: 'chart',
      props: { count: 3, ratio: 0.5, enabled: true, legend: false, options: { stacked: true, colors: ['#f00', 'blue green'] }, series: ['a', 'b'], title: 'Sales Q1' },
    });
    expect(document.nodes[0].meta).toBeUndefined();
    // One block edited: only its line changes.
    expect(edited(document)).toBe(source.replace('Edit me.', 'Edited.'));
    expect(edited(document, (d) => ({ ...d, props: { ...d.props, count: 4 } }))).toBe(source.replace('count=3', 'count=4'));
  });

  it('integration props: a flag alone, a bare word, and a % in a value, which never ends the tag', () => {
    const document = read(lines('{% @acme/chart animate size=large %}'));
    expect(document.nodes[0].data.props).toEqual({ animate: true, size: 'large' });
    expect(document.nodes[0].meta).toEqual({ attributeForms: { animate: 'bare', size: 'unquoted' } });
    const made = { object: 'document', nodes: [{ object: 'block', type: 'integration', isVoid: true, data: { integration: 'acme', block: 'chart', props: { labels: ['50%}', 'x"y'], note: '100%}' } } }] } as unknown as Document;
    const markdown = documentToMarkdown(made);
    expect(markdown).toBe('{% @acme/chart labels=["50\\u0025}","x\\"y"] note="100&#37;}" %}');
    expect(markdownToDocument(markdown).nodes[0].data).toEqual(made.nodes[0].data);
  });

  it('code, hint and embed attributes without quotes or without a value: typed as quoted ones, written back as they came', () => {
    const code = lines('{% code title="app.ts" overflow=wrap lineNumbers=true fullWidth %}', '```ts', 'x()', '```', '{% endcode %}', '', 'Edit me.');
    const document = read(code);
    expect(document.nodes[0]).toMatchObject({ type: 'code', data: { title: 'app.ts', overflow: 'wrap', lineNumbers: true, fullWidth: true }, meta: { attributeForms: { overflow: 'unquoted', lineNumbers: 'unquoted', fullWidth: 'bare' } } });
    expect(edited(document)).toBe(code.replace('Edit me.', 'Edited.'));
    // A value changed keeps its form: only the tag's line changes.
    expect(edited(document, (d) => ({ ...d, lineNumbers: false, fullWidth: false }))).toBe(code.replace('lineNumbers=true fullWidth', 'lineNumbers=false fullWidth=false'));
    expect(read(lines('{% hint style=warning %}', 'Careful.', '{% endhint %}')).nodes[0]).toMatchObject({ type: 'hint', data: { style: 'warning' } });
    expect(read(lines('{% embed url="https://example.com/v" fullWidth %}')).nodes[0]).toMatchObject({ type: 'embed', data: { url: 'https://example.com/v', fullWidth: true } });
  });

  it('a tag whose attributes are none of these forms is text', () => {
    const document = markdownToDocument('{% code title="a" =x %}');
    expect(document.nodes[0].type).toBe('paragraph');
  });
});

describe("GitBook's HTML where its tags or fences cannot say a block", () => {
  it('code with bold lines: <pre><code> read into a code block, its lines keeping their marks', () => {
    const document = read(
      lines(
        '<pre class="language-yaml" data-title="openapi.yaml"><code class="lang-yaml">paths:',
        '  /pet:',
        '<strong>      x-stability: experimental',
        '</strong>      summary: 1 &#x3C; 2 &#x26; more',
        '',
        '</code></pre>',
      ),
    );
    expect(document.nodes[0]).toMatchObject({ type: 'code', data: { syntax: 'yaml', title: 'openapi.yaml' } });
    const codeLines = document.nodes[0].nodes as Json[];
    expect(codeLines.map((l) => text(l.nodes))).toEqual(['paths:', '  /pet:', '      x-stability: experimental', '      summary: 1 < 2 & more', '']);
    expect(codeLines[2].nodes[0].leaves).toEqual([{ object: 'leaf', text: '      x-stability: experimental', marks: [{ object: 'mark', type: 'bold' }] }]);
    expect(codeLines[3].nodes[0].leaves[0].marks).toEqual([]);
  });

  it('code with a bold first line and wrapping: the overflow typed as the code tag has it', () => {
    const document = read(lines('<pre class="language-markdown" data-overflow="wrap"><code class="lang-markdown"><strong>## Example', '</strong>', 'Text', '</code></pre>'));
    expect(document.nodes[0]).toMatchObject({ type: 'code', data: { syntax: 'markdown', overflow: 'wrap' } });
  });

  it('a drawing: GitBook\'s <img class="gitbook-drawing"> of a file read into a drawing block; of a URL it is no drawing', () => {
    const document = read('<img src="fil_diagram01" alt="A diagram drawn in GitBook" class="gitbook-drawing">');
    expect(document.nodes[0]).toEqual({ object: 'block', type: 'drawing', isVoid: true, data: { ref: { kind: 'file', file: 'fil_diagram01' }, alt: 'A diagram drawn in GitBook' } });
    expect(markdownToDocument('<img src="https://example.com/d.svg" alt="D" class="gitbook-drawing">').nodes[0].type).not.toBe('drawing');
  });

  it('a hint in a list item: GitBook\'s custom-block <div> read into a hint inside the item', () => {
    const document = read(
      lines(
        '- Create tickets',
        '',
        '- Hand off to support',
        '',
        '  <div data-gb-custom-block data-tag="hint" data-style="success" class="hint hint-success"><p><strong>Support handoff</strong> is a great start.</p></div>',
        '',
        '- Trigger product actions',
      ),
    );
    const item = (document.nodes[0].nodes as Json[])[1];
    expect(item.nodes.map((b: Json) => b.type)).toEqual(['paragraph', 'hint']);
    expect(item.nodes[1]).toMatchObject({ type: 'hint', data: { style: 'success' } });
    expect(text(item.nodes[1].nodes)).toBe('Support handoff is a great start.');
  });
});
