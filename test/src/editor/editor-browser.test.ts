/// <reference lib="dom" />
/**
 * The editor end to end in a real browser against the real service: sign in, type, see the
 * pages change, see an inline error, download a PDF of what was typed (a double click charging
 * once), hit the previews-per-hour limit, and find the usage report counting one document and no
 * preview. Every request stays on the service's origin and the CSP is never violated.
 * Screenshots of both colour schemes and a narrow screen go to QUIRE_SCREENSHOTS (default: a
 * temporary folder).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { createAccount, startService, usage, type TestAccount, type TestService } from '../../support/service-harness.js';
import { pdftotext } from '../../support/pdf-tools.js';
import { launchChromium, type Browser } from './browser.js';

const SCREENSHOTS = process.env.QUIRE_SCREENSHOTS ?? mkdtempSync(path.join(tmpdir(), 'quire-editor-shots-'));
/** Enough for every edit the tests make before the limit test, with room: below a tenth left, the editor waits for longer pauses. */
const PREVIEWS_PER_HOUR = 60;
/** A 16 × 16 red PNG. */
const RED_SQUARE_PNG = PNG.sync
  .write(Object.assign(new PNG({ width: 16, height: 16 }), { data: Buffer.alloc(16 * 16 * 4, Buffer.from([220, 30, 30, 255])) }))
  .toString('base64');
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../..');

describe('web editor in Chromium', () => {
  let service: TestService;
  let browser: Browser;
  let account: TestAccount;
  let page: Page;
  const offOrigin: string[] = [];
  const consoleErrors: string[] = [];

  before(async () => {
    service = await startService();
    account = await createAccount(service.store, { overrides: { previews_per_hour: PREVIEWS_PER_HOUR } });
    browser = await launchChromium();
    page = await browser.context.newPage();
    // Generous: the whole suite may be running beside this on two cores.
    page.setDefaultTimeout(120_000);
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(service.url) && !/^(data|blob):/.test(url)) offOrigin.push(url);
    });
    page.on('console', (message) => {
      // 401 (the wrong key tried first), 422 (the broken front matter) and 429 (the preview limit) are on purpose.
      if (message.type() === 'error' && !/status of 4(01|22|29)/.test(message.text())) consoleErrors.push(message.text());
    });
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await service?.close();
  });

  const revision = () => page.locator('#pages').getAttribute('data-revision').then(Number);
  async function nextRevision(after: number): Promise<void> {
    // Checked every 20 ms, not on every animation frame: the editor times itself, and polling on
    // every frame would take the two cores' time from the preview being measured.
    await page.waitForFunction((seen) => Number(document.getElementById('pages')!.dataset.revision ?? 0) > seen, after, { polling: 20 });
  }
  const editorText = () => page.evaluate(() => window.quireEditor['view'].state.doc.toString());
  /** No preview asked for or waiting, and (with `quiet`) none for a second: the next keystroke is previewed at once. */
  const settled = (quiet = false) =>
    page.waitForFunction(
      (quietMs) => {
        const editor = window.quireEditor as unknown as {
          pages: { undrawnInView(): boolean };
          previewing: boolean;
          pauseTimer: number | undefined;
          lastPreviewAt: number;
        };
        return !editor.pages.undrawnInView() && !editor.previewing && editor.pauseTimer === undefined && performance.now() - editor.lastPreviewAt >= quietMs;
      },
      quiet ? 1_000 : 0,
    );
  /** Types `first`, a keystroke after a quiet spell, and returns its timing once its page is shown. */
  async function keystrokeToPage(first: string) {
    await settled(true);
    const left = await page.evaluate(() => (window.quireEditor as unknown as { previewsLeft: { left: number } | null }).previewsLeft?.left ?? 0);
    assert.ok(left > PREVIEWS_PER_HOUR / 10, `${left} previews left: too few for the editor to preview a keystroke at once`);
    const before = await revision();
    await page.keyboard.type(first);
    await nextRevision(before);
    return page.evaluate(() => ({ ...window.quireEditor.timing }));
  }

  it('should open on / and sign in with an API key, then show the pages', async () => {
    await page.goto(`${service.url}/`);
    assert.equal(new URL(page.url()).pathname, '/editor');
    await page.fill('#api-key', 'not-a-key');
    await page.click('#signin button');
    await page.waitForSelector('#status:has-text("not valid")');
    await page.fill('#api-key', account.key);
    await page.press('#api-key', 'Enter');
    await page.waitForSelector('#signed-in:not([hidden])');
    await page.waitForSelector('#pages figure img[src^="data:image/png"]');
    assert.match((await page.textContent('#page-count')) ?? '', /^1 page$/);
    assert.match((await page.textContent('#previews-left')) ?? '', new RegExp(`^${PREVIEWS_PER_HOUR - 1} of ${PREVIEWS_PER_HOUR} previews left`));
    assert.equal(await page.evaluate(() => localStorage.getItem('quire.apiKey')), account.key);
  });

  it('should redraw the page as one types, and measure keystroke to page', async () => {
    await page.click('.cm-content');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n\n');
    const timing = await keystrokeToPage('Z');
    console.log(`editor latency (welcome page): keystroke → page shown ${(timing.shownAt - timing.changedAt).toFixed(0)} ms`);
    assert.ok(timing.requestedAt - timing.changedAt < 100, 'the first keystroke after a quiet spell is previewed at once');
    assert.ok(timing.shownAt - timing.changedAt < 2_000);
    // The keystrokes that follow are gathered into one preview once typing pauses.
    const before = await revision();
    await page.keyboard.type('ebras quietly typeset quokkas.');
    await settled();
    assert.ok((await revision()) - before <= 2, 'a burst of typing costs at most two previews');
    assert.ok((await editorText()).endsWith('Zebras quietly typeset quokkas.'));
    assert.equal(await page.evaluate(() => localStorage.getItem('quire.draft')), await editorText(), 'the draft is saved in the browser');
  });

  it('should show a front matter error inline at its line, in plain words with its code, keeping the pages', async () => {
    const before = await revision();
    await page.click('#settings-toggle');
    await page.selectOption('select[name="theme"]', 'dark');
    await nextRevision(before);
    assert.match(await editorText(), /^---\ntitle: A first document\ntheme: dark\n---/);
    await page.click('#settings-toggle');
    // Now break it by hand: "theme: blue" on line 3.
    await page.evaluate(() => {
      const view = window.quireEditor['view'];
      const line = view.state.doc.line(3);
      view.dispatch({ changes: { from: line.from, to: line.to, insert: 'theme: blue' } });
    });
    await page.waitForSelector('#problems li.error');
    const problem = await page.textContent('#problems li.error');
    assert.match(problem ?? '', /^Line 3: The front matter has a problem: theme must be light or dark, not "blue"\. render_failed$/);
    await page.waitForSelector('.cm-lintRange-error');
    assert.ok((await page.locator('#pages figure img').count()) >= 1, 'never a blank preview');
    await page.evaluate(() => {
      const view = window.quireEditor['view'];
      const line = view.state.doc.line(3);
      view.dispatch({ changes: { from: line.from, to: line.to, insert: 'theme: light' } });
    });
    await page.waitForSelector('#problems', { state: 'hidden' });
  });

  it('should mark a formula TeX cannot set at its line, as a warning the PDF carries', async () => {
    const before = await revision();
    await page.click('.cm-content');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n\n$$\n\\frac{1}{\n$$\n');
    await nextRevision(before);
    const text = await editorText();
    const line = text.split('\n').indexOf('\\frac{1}{') + 1;
    const warning = await page.textContent('#problems li.warning');
    assert.equal(warning, `Line ${line}: Formula not typeset: Missing close brace. The PDF shows its source with this note. warning`);
    await page.waitForSelector('.cm-lintRange-warning');
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('Shift+ArrowUp');
    await page.keyboard.press('Backspace');
    await page.waitForSelector('#problems', { state: 'hidden' });
  });

  it('should embed a pasted image as a data: URI and draw it on the page', async () => {
    const before = await revision();
    await page.click('.cm-content');
    await page.keyboard.press('Control+End');
    await page.evaluate((base64) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'red square.png', { type: 'image/png' }));
      document.querySelector('.cm-content')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    }, RED_SQUARE_PNG);
    await page.waitForFunction(() => window.quireEditor['view'].state.doc.toString().includes('![red square](data:image/png;base64,'));
    await nextRevision(before);
    assert.ok(!(await page.isVisible('#problems li')), 'the pasted image loads');
    // Take the image out again, so the pages below stay as they were.
    await page.evaluate(() => {
      const view = window.quireEditor['view'];
      const text = view.state.doc.toString();
      const from = text.indexOf('\n![red square]');
      view.dispatch({ changes: { from, to: text.indexOf(')', from) + 2 } });
    });
  });

  it('should put the cursor on the source line of the text clicked on a page', async () => {
    await page.evaluate(() => window.quireEditor['view'].dispatch({ selection: { anchor: 0 } }));
    const spot = await page.evaluate(() => {
      const pages = (
        window.quireEditor as unknown as { pages: { texts: Map<string, { y: number; text: string }[]>; shown: { hash: string; figure: HTMLElement }[] } }
      ).pages;
      const first = pages.shown[0]!;
      const line = pages.texts.get(first.hash)!.find((entry) => entry.text.startsWith('Zebras'))!;
      const box = first.figure.querySelector('img')!.getBoundingClientRect();
      const scale = box.height / Number(first.figure.dataset.height);
      return { x: box.left + box.width / 2, y: box.top + (line.y - 3) * scale };
    });
    await page.mouse.click(spot.x, spot.y);
    const cursorLine = await page.evaluate(() => {
      const view = window.quireEditor['view'];
      return view.state.doc.lineAt(view.state.selection.main.head).text;
    });
    assert.equal(cursorLine, 'Zebras quietly typeset quokkas.');
    assert.ok(await page.evaluate(() => window.quireEditor['view'].hasFocus));
  });

  it('should take screenshots in both colour schemes and stay usable on a narrow screen', async () => {
    await page.evaluate(() => localStorage.setItem('quire.colorScheme', 'light'));
    await page.reload();
    await page.waitForSelector('#pages figure img');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'editor-light.png') });
    await page.click('#scheme-toggle');
    assert.equal(await page.getAttribute('html', 'data-scheme'), 'dark');
    assert.equal(await page.getAttribute('#scheme-toggle', 'aria-pressed'), 'true');
    // The document in its dark theme too, chosen in the drawer.
    let before = await revision();
    await page.click('#settings-toggle');
    await page.selectOption('select[name="theme"]', 'dark');
    await nextRevision(before);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'editor-dark-settings.png') });
    await page.click('#settings-toggle');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'editor-dark.png') });
    before = await revision();
    await page.click('#settings-toggle');
    await page.selectOption('select[name="theme"]', 'light');
    await page.click('#settings-toggle');
    await nextRevision(before);
    await page.setViewportSize({ width: 420, height: 860 });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'editor-narrow.png') });
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing wider than a phone');
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.click('#scheme-toggle');
  });

  it('should be usable from the keyboard alone: skip link, settings drawer opened and closed with keys', async () => {
    await page.reload();
    await page.waitForSelector('#pages figure img');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Markdown source', 'the skip link leads to the editor');
    await page.focus('#settings-toggle');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'theme');
    await page.keyboard.press('Escape');
    assert.equal(await page.getAttribute('#settings-toggle', 'aria-expanded'), 'false');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'settings-toggle');
  });

  it('should download the PDF of what was typed, charging one document for a double click', async () => {
    const downloaded = page.waitForEvent('download');
    await page.dblclick('#download');
    const download = await downloaded;
    assert.equal(download.suggestedFilename(), 'A first document.pdf', 'named after the title');
    const file = await download.path();
    const text = await pdftotext(readFileSync(file));
    assert.match(text, /Zebras quietly typeset quokkas\./);
    await page.waitForSelector('#status:has-text("Downloaded")');
    const report = (await (await usage(service, account.key)).json()) as { credits_used: number; keys: unknown[] };
    assert.equal(report.credits_used, 1, 'one document for a double click');
    assert.deepEqual(report.keys, [], 'the editor spends no key');
  });

  /** Loads `markdown`, then types a word at the start of a paragraph in its middle, twice; the second (warm) first keystroke is measured. */
  async function measureEdit(name: string, markdown: string): Promise<{ pages: number; redrawn: number; keystrokeToPage: number }> {
    const before = await revision();
    await page.evaluate((text) => {
      const view = window.quireEditor['view'];
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    }, markdown);
    await nextRevision(before);
    const pages = await page.locator('#pages figure').count();
    if (pages > 100) {
      // Scrolling the pages to the middle brings the middle of the source into view (once the
      // pages have settled where the source put them).
      await page.waitForTimeout(200);
      await page.locator('#pages').evaluate((pane) => (pane.scrollTop = (pane.scrollHeight - pane.clientHeight) / 2));
      await page.waitForTimeout(300);
      const shown = await page.evaluate(() => {
        const view = window.quireEditor['view'];
        const top = view.lineBlockAtHeight(view.scrollDOM.scrollTop);
        return view.state.doc.lineAt(top.from).number / view.state.doc.lines;
      });
      assert.ok(shown > 0.35 && shown < 0.65, `the source follows the pages: ${shown.toFixed(2)} of the way down`);
      // The pages follow the source to the same text, not only to the same share of the document.
      const heading = await page.evaluate(() => {
        const view = window.quireEditor['view'];
        const doc = view.state.doc;
        for (let n = Math.floor(doc.lines * 0.7); n < doc.lines; n += 1) {
          const text = doc.line(n).text;
          if (!/^## [A-Z]/.test(text)) continue;
          const editorView = view.constructor as unknown as { scrollIntoView(pos: number, options: { y: string }): never };
          view.dispatch({ effects: editorView.scrollIntoView(doc.line(n).from, { y: 'start' }) });
          return text.slice(3);
        }
        return '';
      });
      assert.ok(heading.length > 0);
      await settled();
      const textInView = await page.evaluate(() => {
        const pages = window.quireEditor['pages'] as unknown as {
          placeInView(): { page: number };
          shown: { hash: string }[];
          texts: Map<string, { text: string }[]>;
        };
        const index = pages.placeInView().page;
        return (pages.texts.get(pages.shown[index]!.hash) ?? []).map((line) => line.text).join(' ');
      });
      assert.ok(textInView.includes(heading), `the page in view shows "${heading}", scrolled to in the source`);
    }
    const line = await page.evaluate(() => {
      const doc = window.quireEditor['view'].state.doc;
      for (let n = Math.floor(doc.lines / 2); n < doc.lines; n += 1) if (/^[A-Z][a-z][^|]*\.$/.test(doc.line(n).text)) return n;
      return 0;
    });
    assert.ok(line > 0);
    let measured = { pages, redrawn: 0, keystrokeToPage: 0 };
    for (const word of ['Zebra ', 'Quokka ']) {
      await page.evaluate((n) => {
        const view = window.quireEditor['view'];
        view.dispatch({ selection: { anchor: view.state.doc.line(n).from }, scrollIntoView: true });
        view.focus();
      }, line);
      // A preview draws only the pages near the one in view: those the scroll brought in first
      // (settled waits for them).
      const timing = await keystrokeToPage(word[0]!);
      // Pictures the edit's own preview replaced (it may also draw pages near it for the first time).
      measured = { pages, redrawn: timing.replaced, keystrokeToPage: timing.shownAt - timing.changedAt };
      console.log(
        `editor latency (${name}, ${pages} pages, "${word[0]}"): keystroke → page shown ${measured.keystrokeToPage.toFixed(0)} ms ` +
          `(asked for after ${(timing.requestedAt - timing.changedAt).toFixed(0)} ms, answered after ${(timing.answeredAt - timing.changedAt).toFixed(0)} ms), ${measured.redrawn} page(s) redrawn`,
      );
      await page.keyboard.type(word.slice(1));
      await settled();
    }
    return measured;
  }

  /**
   * The page an edit redrew as bands looks as the whole page drawn afresh: the figure as shown,
   * then with a whole picture of the same page asked for and put in its place.
   */
  async function assertBandsInPlace(): Promise<void> {
    const index = await page.evaluate(() =>
      Array.prototype.indexOf.call(document.querySelectorAll('#pages figure'), document.querySelector('#pages figure:has(img.band)')),
    );
    assert.ok(index >= 0, 'the edits came back as bands over a page');
    const figure = page.locator('#pages figure').nth(index);
    await figure.scrollIntoViewIfNeeded();
    const layered = PNG.sync.read(await figure.screenshot({ path: path.join(SCREENSHOTS, 'editor-page-with-bands.png') }));
    await page.evaluate(
      async ({ key, index }) => {
        const shown = document.querySelectorAll<HTMLElement>('#pages figure')[index]!;
        const editor = window.quireEditor['view'];
        const response = await fetch('/editor/preview', {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ markdown: editor.state.doc.toString(), focus_page: index }),
        });
        const answer = (await response.json()) as { pages: { png: string }[] };
        shown.querySelectorAll('img.band').forEach((band) => band.remove());
        const whole = shown.querySelector('img')!;
        whole.src = `data:image/png;base64,${answer.pages[index]!.png}`;
        await whole.decode();
      },
      { key: account.key, index },
    );
    const fresh = PNG.sync.read(await figure.screenshot());
    assert.deepEqual([layered.width, layered.height], [fresh.width, fresh.height]);
    let differing = 0;
    for (let i = 0; i < fresh.data.length; i += 4) {
      if ([0, 1, 2].some((channel) => Math.abs(fresh.data[i + channel]! - layered.data[i + channel]!) > 48)) differing += 1;
    }
    console.log(`bands over the page as shown against the whole page drawn afresh: ${differing} of ${fresh.width * fresh.height} pixels differ`);
    // The browser scales a band's edges a little differently from the page's: a row of pixels at
    // each edge at most (more of it differs where an edge crosses the watermark), never a line of
    // text, which is a dozen rows.
    assert.ok(differing < 4 * fresh.width, `${differing} of ${fresh.width * fresh.height} pixels differ`);
  }

  it('should redraw only the page an edit changed, README-sized and in the CommonMark spec (130+ pages), and measure it', async () => {
    const readme = await measureEdit('README.md', readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    assert.ok(readme.pages >= 3);
    assert.equal(readme.redrawn, 1, 'only the edited page is redrawn');
    await assertBandsInPlace();
    const spec = await measureEdit('CommonMark spec', readFileSync(path.join(ROOT, 'node_modules/commonmark-spec/spec.txt'), 'utf8'));
    assert.ok(spec.pages > 130, `${spec.pages} pages`);
    assert.equal(spec.redrawn, 1, 'only the edited page is redrawn');
  });

  it('should refuse previews past the hour limit, say so, and still have counted no preview as a document', async () => {
    // All but the last two previews spent directly; the editor then meets the limit as one types.
    await page.evaluate(async (key) => {
      const editor = window.quireEditor as unknown as { previewsLeft: { left: number } };
      for (let spent = 0; spent < editor.previewsLeft.left - 2; spent += 1) {
        await fetch('/editor/preview', {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ markdown: '# Spent' }),
        });
      }
    }, account.key);
    for (let i = 0; i < 6; i += 1) {
      if ((await page.locator('#problems li:has-text("previews_per_hour")').count()) > 0) break;
      const before = await revision();
      await page.click('.cm-content');
      await page.keyboard.press('Control+End');
      await page.keyboard.type(` ${i}`);
      // The loser of the race is left to time out on its own; its rejection is not a failure.
      const redrawn = nextRevision(before);
      const refused = page.waitForSelector('#problems li:has-text("previews of this hour are used")');
      redrawn.catch(() => undefined);
      refused.catch(() => undefined);
      await Promise.race([redrawn, refused]);
    }
    const problem = await page.textContent('#problems li.error');
    assert.match(
      problem ?? '',
      new RegExp(`All ${PREVIEWS_PER_HOUR} previews of this hour are used; the next one is free in \\d+ min\\. Downloads still work\\. rate_limited`),
    );
    assert.equal(await page.textContent('#previews-left'), '0 previews left this hour');
    assert.ok((await page.locator('#pages figure img').count()) >= 1, 'the last pages stay');
    const report = (await (await usage(service, account.key)).json()) as { credits_used: number };
    assert.equal(report.credits_used, 1);
  });

  it('should have sent nothing to another origin and broken no CSP rule', async () => {
    assert.deepEqual(offOrigin, []);
    assert.deepEqual(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), []);
    assert.deepEqual(consoleErrors, []);
  });
});

declare global {
  interface Window {
    quireEditor: {
      view: import('@codemirror/view').EditorView;
      timing: { changedAt: number; requestedAt: number; answeredAt: number; shownAt: number; replaced: number };
    } & Record<string, never>;
  }
}
