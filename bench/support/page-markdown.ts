// The page of ordinary documentation the published-site benches render (bench/published-site.ts, bench/render-page.ts).
/** A page of ordinary documentation: headings, paragraphs with links and code, a list, a table, a code block, a hint. */
export function pageMarkdown(n: number): string {
  return [
    `Everything about topic ${n}: what it is for, how to set it up and what to watch for.`,
    '## Before you start',
    `You need an account with the **edit** role and the \`acme\` CLI (version 2.${n} or later). See [the install guide](https://example.com/install) and the [reference](https://example.com/reference/${n}).`,
    '- Read the overview first.\n- Keep your token at hand.\n- Check the [status page](https://status.example.com).',
    '## Options',
    '| Option | Default | Meaning |\n|---|---|---|\n| `--retries` | `3` | How many times a failed call is retried |\n| `--timeout` | `30s` | The longest a call may take |\n| `--region` | `eu` | Where the data stays |',
    '## Example',
    '```sh\nacme login --token "$ACME_TOKEN"\nacme deploy --retries 5 --timeout 60s\nacme status --watch\n```',
    '{% hint style="info" %}\nA deploy can be rolled back for 30 days.\n{% endhint %}',
    '### Troubleshooting',
    `If the deploy stops at step ${n}, run \`acme doctor\` and send its output to support. Most problems come from an expired token or a missing permission on the target project.`,
  ].join('\n\n');
}
