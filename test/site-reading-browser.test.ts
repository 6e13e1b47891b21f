// The published site as a reader uses it, in a real headless Chromium (Debian's `chromium`, driven by
// playwright-core): a page holding every block (test/support/every-block.ts) is screenshot in light and
// dark mode into test-results/, a tab is switched by keyboard, an expandable opened, a code block copied,
// an annotation's popover opened by keyboard and its note read, mentions, inline buttons and icons found,
// math and highlighted code found rendered on the server, the search opened with `/` shows a result with
// its highlighted excerpt as one types, the right arrow key leads to the next page; axe-core (injected
// into the page) finds no violation on the page of every block, the search page and the 404 page.
// Skipped, saying why, where /usr/bin/chromium is absent.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, useBrowser } from './support/browser.js';
import { EVERY_BLOCK_FILE, EVERY_BLOCK_MARKDOWN } from './support/every-block.js';
import { PUBLIC_URL, useHarness } from './support/harness.js';
import { resultsDir } from './support/paths.js';
import { publish, spaceWithPages } from './published-support.js';
import { newSite } from './sites-support.js';

const h = useHarness();
const chrome = useBrowser(h, 'reading experience');
const axeSource: string = createRequire(import.meta.url)('axe-core').source;

interface AxeViolation {
  id: string;
  impact: string;
  nodes: { target: string[]; failureSummary: string }[];
}

/** axe-core's violations on the page as it is (WCAG 2.1 A and AA, and axe's best practices). */
async function violations(page: Page, name: string): Promise<string> {
  await page.evaluate(axeSource);
  const found = (await page.evaluate(() => (window as unknown as { axe: { run: (o: object) => Promise<{ violations: unknown[] }> } }).axe.run({ runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }))) as {
    violations: AxeViolation[];
  };
  const lines = found.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => `${n.target.join(' ')} — ${n.failureSummary}`).join('; ')}`);
  writeFileSync(path.join(resultsDir, `site-reading-axe-${name}.txt`), lines.join('\n'));
  return lines.join('\n');
}

describe.skipIf(!hasChromium)('reading a published site in Chromium', () => {
  it('renders every block, switches tabs by keyboard, opens, copies, searches, and axe finds nothing', { timeout: 240_000 }, async () => {
    const admin = await h.current.newAdmin();
    const space = await spaceWithPages(admin, 'Handbook', [
      { title: 'Every block', description: 'Each block a page can hold', markdown: EVERY_BLOCK_MARKDOWN.replaceAll('usr_01ABCDEFGHJK', admin.userId) },
      { title: 'Readers', markdown: 'Hello readers of <b>bold</b> claims: this page is found by its words.\n\n## Details\n\nMore text for readers.' },
    ], [EVERY_BLOCK_FILE]);
    const site = await newSite(admin, { title: 'Acme Handbook', spaces: [space] });
    const url = (await publish(admin, site.id)).urls.published.replace(PUBLIC_URL, chrome.publicUrl);

    // bypassCSP: axe is injected as a script the page's policy (no inline script) would refuse.
    const context = await chrome.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light', bypassCSP: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: chrome.publicUrl });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    await expect(page.title()).resolves.toBe('Every block | Acme Handbook');

    // Math and code, rendered on the server: KaTeX's HTML and MathML, Shiki's colours.
    await expect(page.locator('article .katex math').count()).resolves.toBe(2);
    await expect(page.locator('article .katex-display').count()).resolves.toBe(1);
    const keyword = page.locator('.code-block', { hasText: 'robot.ts' }).locator('pre.shiki span[style*="color"]', { hasText: 'import' }).first();
    await expect(keyword.evaluate((e) => getComputedStyle(e).color)).resolves.not.toBe('rgb(31, 35, 40)');
    await expect(page.locator('.code-block.line-numbers.wrap .code-title').textContent()).resolves.toBe('robot.ts');

    // "On this page", from the headings; the blocks as a reader expects them.
    const outline = page.getByRole('navigation', { name: 'On this page' });
    await expect(outline.getByRole('link').allTextContents()).resolves.toEqual(['Physics', 'Install', 'First run', 'Layout']);
    await expect(page.locator('ol.stepper > li.step').count()).resolves.toBe(2);
    await expect(page.locator('.columns > .column').count()).resolves.toBe(2);
    await expect(page.locator('.cards > a.card').count()).resolves.toBe(2);
    await expect(page.locator('.cards > a.card').first().getAttribute('href')).resolves.toBe('https://example.com/quick-start');
    await expect(page.locator('figure.image figcaption').textContent()).resolves.toBe('The R2, loaded.');
    await expect(page.locator('a.link-card[download]').textContent()).resolves.toContain('acme-manual.pdf');
    await expect(page.locator('a.link-card[href="https://example.com/reference"] .card-kind').textContent()).resolves.toBe('Page');
    await expect(page.locator('.embed a.link-card').getAttribute('href')).resolves.toBe('https://example.com/robots-video');
    await expect(page.locator('a.button.button-primary').textContent()).resolves.toBe('Sign up');
    await expect(page.getByRole('img', { name: 'github' }).count()).resolves.toBe(1);
    await expect(page.locator('aside.hint.hint-info').textContent()).resolves.toContain('charge themselves');

    // Inline: a button with its icon, an icon, mention chips (a page: a link to it; a user: their name), an emoji.
    const inline = page.locator('article p', { hasText: 'charging protocol' });
    await expect(inline.locator('a.button.button-secondary').getAttribute('href')).resolves.toBe('https://example.com/support');
    await expect(inline.getByRole('link', { name: 'Support', exact: true }).count()).resolves.toBe(1);
    await expect(inline.getByRole('img', { name: 'bolt' }).count()).resolves.toBe(1);
    const mention = inline.getByRole('link', { name: 'Readers', exact: true });
    await expect(mention.getAttribute('class')).resolves.toBe('mention mention-page');
    await expect(mention.getAttribute('href')).resolves.toMatch(/\/readers$/);
    await expect(inline.locator('span.mention.mention-user').textContent()).resolves.toMatch(/^@User \d+$/); // the member's display name
    await expect(inline.textContent()).resolves.toContain('✅');

    // An annotation: its reference, reached by Tab and opened with Enter, shows its note beside it.
    const note = inline.getByRole('link', { name: 'Note 1' });
    await expect(note.getAttribute('aria-expanded')).resolves.toBe('false');
    await page.getByRole('link', { name: 'Contact sales' }).focus(); // the link before it
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe('Note 1');
    await page.keyboard.press('Enter');
    await expect(note.getAttribute('aria-expanded')).resolves.toBe('true');
    const popover = page.locator(`#${await note.getAttribute('aria-controls')}`);
    await expect(popover.isVisible()).resolves.toBe(true);
    await expect(popover.getAttribute('role')).resolves.toBe('note');
    await expect(popover.textContent()).resolves.toMatch(/^\s*The dock checks the robot's battery before it sends any current\.\s*$/);
    expect(page.url()).not.toContain('#'); // the link to the note at the end of the page was not followed

    // Shot and checked with the note open; Escape closes it and gives the focus back to its reference.
    await page.screenshot({ path: path.join(resultsDir, 'site-reading-light.png'), fullPage: true });
    expect(await violations(page, 'blocks-light'), 'axe on the page of every block (light)').toBe('');
    await page.keyboard.press('Escape');
    await expect(popover.count()).resolves.toBe(0);
    await expect(note.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe('Note 1');

    // An action button opens the search with its query.
    await inline.getByRole('button', { name: 'Search robots' }).click();
    await expect(page.evaluate(() => [document.activeElement?.id, (document.activeElement as HTMLInputElement).value])).resolves.toEqual(['site-search', 'robots']);
    await page.keyboard.press('Escape');

    // Tabs: the first panel shown, the second hidden; the right arrow key moves to the next tab.
    const tabs = page.getByRole('tablist');
    const yarn = tabs.getByRole('tab', { name: 'Yarn' });
    await expect(page.getByRole('tabpanel', { name: 'npm' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('#panel-1-2').isVisible()).resolves.toBe(false);
    await tabs.getByRole('tab', { name: 'npm' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(yarn.getAttribute('aria-selected')).resolves.toBe('true');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Yarn');
    await expect(page.getByRole('tabpanel', { name: 'Yarn' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('#panel-1-1').isVisible()).resolves.toBe(false);
    // Printed, every panel shows under its title.
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('#panel-1-1').isVisible()).resolves.toBe(true);
    await expect(page.locator('#panel-1-1 .tab-title').isVisible()).resolves.toBe(true);
    await expect(tabs.isVisible()).resolves.toBe(false);
    await page.emulateMedia({ media: 'screen' });

    // The expandable opens.
    const details = page.locator('details.expandable');
    await expect(details.evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(false);
    await details.locator('summary').click();
    await expect(details.evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(true);
    await expect(details.getByText('40 volts').isVisible()).resolves.toBe(true);

    // The copy button copies the code as written.
    await page.locator('.code-block', { hasText: 'robot.ts' }).getByRole('button', { name: /Copy/ }).click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(
      "import { Robot } from 'acme-robots';\n\nconst robot = new Robot({ name: 'R2' });\nawait robot.move({ to: 'dock' });",
    );

    // Dark mode: the reader's system setting, then the switch.
    await page.emulateMedia({ colorScheme: 'dark' });
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await expect(background()).resolves.toBe('rgb(22, 23, 26)');
    await expect(keyword.evaluate((e) => getComputedStyle(e).color)).resolves.toBe('rgb(255, 123, 114)'); // Shiki's dark colour
    await page.screenshot({ path: path.join(resultsDir, 'site-reading-dark.png'), fullPage: true });
    expect(await violations(page, 'blocks-dark'), 'axe on the page of every block (dark)').toBe('');
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await expect(background()).resolves.toBe('rgb(255, 255, 255)');
    await page.emulateMedia({ colorScheme: 'light' });

    // Search: `/` focuses the box, results come as one types, the matching word highlighted, nothing escaped twice.
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.keyboard.press('/');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('site-search');
    await page.keyboard.type('readers');
    const results = page.locator('#search-results');
    await results.locator('mark').first().waitFor();
    await expect(results.getByRole('link', { name: 'Readers' }).first().isVisible()).resolves.toBe(true);
    await expect(results.locator('mark').first().textContent()).resolves.toBe('readers');
    await expect(results.textContent()).resolves.not.toMatch(/&lt;|&amp;/);
    await page.keyboard.press('Escape');
    await expect(results.isVisible()).resolves.toBe(false);

    // The right arrow key leads to the next page.
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/\/readers$/);
    await expect(page.title()).resolves.toBe('Readers | Acme Handbook');

    // The search page itself and the 404 page.
    const searched = await page.goto(`${url}/~search?q=readers`);
    expect(searched?.status()).toBe(200);
    await expect(page.locator('.results mark').first().textContent()).resolves.toBe('readers');
    expect(await violations(page, 'search'), 'axe on the search page').toBe('');
    const missing = await page.goto(`${url}/no-such-page`);
    expect(missing?.status()).toBe(404);
    expect(await violations(page, '404'), 'axe on the 404 page').toBe('');
    const nowhere = await page.goto(`${chrome.publicUrl}/sites/no-such-org/no-such-site`);
    expect(nowhere?.status()).toBe(404);
    expect(await violations(page, '404-no-site'), 'axe on the 404 page of no site').toBe('');
    expect(errors).toEqual([]);
    await context.close();

    // With scripts off, every tab panel reads under its title and the tab list (which could not switch) is hidden.
    const noScript = await chrome.browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const still = await noScript.newPage();
    expect((await still.goto(url))?.status()).toBe(200);
    await expect(still.locator('.tablist').isVisible()).resolves.toBe(false);
    await expect(still.locator('.tab-panel').evaluateAll((panels) => panels.map((p) => (p as HTMLElement).offsetHeight > 0))).resolves.toEqual([true, true]);
    await expect(still.locator('.tab-title').allTextContents()).resolves.toEqual(['npm', 'Yarn']);
    await expect(still.locator('.copy').first().isVisible()).resolves.toBe(false);
    // The annotation is a link to its note, at the end of the page; the action button (which could do nothing) is hidden.
    await expect(still.getByRole('link', { name: 'Note 1' }).getAttribute('href')).resolves.toBe('#user-content-fn-1');
    await expect(still.locator('#user-content-fn-1').isVisible()).resolves.toBe(true);
    await expect(still.locator('#user-content-fn-1').textContent()).resolves.toContain("The dock checks the robot's battery");
    await expect(still.getByRole('button', { name: 'Search robots' }).isVisible()).resolves.toBe(false);
    await noScript.close();
  });
});
