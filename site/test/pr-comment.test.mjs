// The PR comment as a reader on GitHub sees it: fixtures/pr-comment-no-change.md is the runner's PrComment output for
// an A/B where nothing changed (PrCommentTest writes it and fails when it is stale). Rendered as GitHub-flavoured
// markdown in Chromium at a comment's width; collapsed <details> hide their tables, as on GitHub.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { marked } from 'marked';
import { launch, openPage } from './browser.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const MAX_LINES = 40;
let browser;

before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Distinct rendered text lines: the tops of the line boxes of every text node the browser actually lays out. */
const visualLines = (page) => page.evaluate(() => {
  const tops = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    // Closed <details> content is still laid out on request in Chromium (content-visibility), so ask what is shown.
    if (!node.textContent.trim() || !node.parentElement.checkVisibility({ contentVisibilityAuto: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) tops.add(Math.round(r.top));
  }
  return tops.size;
});

test('the no-change PR comment renders to at most 40 visible lines, its tables one click away', async () => {
  const markdown = readFileSync(join(HERE, '..', 'fixtures', 'pr-comment-no-change.md'), 'utf8');
  const page = await openPage(browser, { width: 800, height: 900 });
  // GitHub's comment column is about 760 px wide with a 14 px body font.
  await page.setContent(`<!doctype html><meta charset="utf-8"><body style="font: 14px/1.5 sans-serif; width: 760px; margin: 16px">${marked.parse(markdown, { gfm: true })}</body>`);
  assert.match(await page.locator('body').innerText(), /No change/);
  const collapsed = await visualLines(page);
  assert.ok(collapsed > 0 && collapsed <= MAX_LINES, `${collapsed} visible lines`);
  // The per-series tables are there, collapsed: opening them makes the comment much longer, so the count above is
  // of what a reader sees, not of the whole markdown.
  const details = page.locator('details');
  assert.ok(await details.count() >= 1, 'the series tables sit in <details>');
  assert.ok(await page.locator('details table').count() >= 1);
  await details.evaluateAll((ds) => ds.forEach((d) => { d.open = true; }));
  const expanded = await visualLines(page);
  assert.ok(expanded > MAX_LINES, `expanded: ${expanded} lines`);
  await page.screenshot({ path: join(HERE, '..', 'test-artifacts', 'pr-comment-no-change.png'), fullPage: true });
  await page.context().close();
});
