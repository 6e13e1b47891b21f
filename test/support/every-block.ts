// A page of GitBook-flavoured Markdown holding every block a published page renders (the browser test of
// the reading experience and bench/published-site.ts write it through the API): headings, text marks,
// emoji, inline and block math, a hint, tabs, code with a title and line numbers, an expandable, a
// stepper, columns, a table and a table in cards view, an image with its caption, an embed, a file, a
// content reference, buttons and icons, inline buttons, icons, mentions (a page, a user: `usr_01ABCDEFGHJK`,
// which a test may replace with a member's id) and an annotation (a footnote), a quote, lists, a task list
// and a divider. The file is `acme-manual.pdf` of the space (EVERY_BLOCK_FILE), which the writer inserts first.
export const EVERY_BLOCK_MARKDOWN = `Acme robots move boxes in warehouses 🚀. This page shows **every block**, with _emphasis_, \`code\`, ~~old text~~ and a [link](https://example.com/acme).

## Physics

The energy of a box at rest is $$E = mc^2$$, and its work over a path:

$$
W = \\int_a^b F(x)\\,dx
$$

{% hint style="info" %}
Robots charge themselves at night.
{% endhint %}

## Install

{% tabs %}
{% tab title="npm" %}
\`\`\`bash
npm install acme-robots
\`\`\`
{% endtab %}

{% tab title="Yarn" %}
Run \`yarn add acme-robots\` in your project.
{% endtab %}
{% endtabs %}

{% code title="robot.ts" lineNumbers="true" overflow="wrap" %}
\`\`\`ts
import { Robot } from 'acme-robots';

const robot = new Robot({ name: 'R2' });
await robot.move({ to: 'dock' });
\`\`\`
{% endcode %}

<details>

<summary>How charging works</summary>

The dock sends **40 volts** through the robot's feet.

</details>

### First run

{% stepper %}
{% step %}
#### Unbox

Take the robot out of its box.
{% endstep %}

{% step %}
#### Switch on

Hold the button for three seconds.
{% endstep %}
{% endstepper %}

### Layout

{% columns %}
{% column width="50" %}
The left column describes the robot's sensors.
{% endcolumn %}

{% column width="50" %}
The right column describes its motors.
{% endcolumn %}
{% endcolumns %}

| Model | Load | Speed |
| ----- | ---: | ----: |
| R1    | 20 kg | 1 m/s |
| R2    | 40 kg | 2 m/s |

<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td><strong>Quick start</strong></td><td>Your first robot in five minutes.</td><td><a href="https://example.com/quick-start">Quick start</a></td></tr><tr><td><strong>Fleet</strong></td><td>Many robots, one warehouse.</td><td><a href="https://example.com/fleet">Fleet</a></td></tr></tbody></table>

<figure><img src="https://example.com/robot.png" alt="An R2 robot carrying a box"><figcaption><p>The R2, loaded.</p></figcaption></figure>

{% embed url="https://example.com/robots-video" %}

{% file src=".gitbook/assets/acme-manual.pdf" %}
The printed manual.
{% endfile %}

{% content-ref url="https://example.com/reference" %}
[API reference](https://example.com/reference)
{% endcontent-ref %}

<p><a href="https://example.com/signup" class="button primary">Sign up</a> <a href="https://example.com/contact" class="button secondary">Contact sales</a> <i class="fa-github">:github:</i> <i class="fa-rocket">:rocket:</i></p>

Robots follow the charging protocol[^1] <i class="fa-bolt">:bolt:</i>, write to <a href="https://example.com/support" class="button secondary" data-icon="envelope">Support</a> when stuck, and are described in [Readers](readers.md "mention") by [usr_01ABCDEFGHJK](usr_01ABCDEFGHJK "mention") ✅. <a class="button primary" data-action="search" data-query="robots">Search robots</a>

> Robots do not get tired. — the Acme team

- Sensors
- Motors
  1. Left
  2. Right

- [x] Unboxed
- [ ] Charged

---

That is every block.

[^1]: The dock checks the robot's battery before it sends any current.`;

/** The space's file the page's file block names. */
export const EVERY_BLOCK_FILE = { name: 'acme-manual.pdf', contentType: 'application/pdf', text: '%PDF-1.4 the printed manual' };
