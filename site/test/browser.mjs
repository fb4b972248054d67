// Shared by the tests and the scale benchmark: the system Chromium through playwright-core (no browser download).
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Playwright refuses --user-data-dir with launch(); it gives every launch a fresh temporary profile itself. */
export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    timeout: 60_000,
  });
}

/** A page that fails the test on any uncaught error or dialog (an alert would mean injected markup ran). */
export async function openPage(browser, { width = 1280, height = 900, colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme });
  // Generous bounds, not timings: the shared 2-core box can be very busy; a wait only fails if nothing happens.
  context.setDefaultTimeout(120_000);
  const page = await context.newPage();
  page.problems = [];
  page.dialogs = [];
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console: ${m.text()}`); });
  page.on('dialog', async (d) => { page.dialogs.push(d.message()); await d.dismiss(); });
  return page;
}
