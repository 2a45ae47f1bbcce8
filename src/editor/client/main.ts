/**
 * The Quire editor in the browser: Markdown on the left (CodeMirror 6), the real pages on the
 * right, previewed as the person types (coalesced: one preview in flight, the latest text next),
 * the PDF downloaded through the service's render flow with one Idempotency-Key per document
 * state, so a double click never charges twice.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { Compartment, EditorState, type Text } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { fetchPdf, fetchPreview, fetchUsage, ServiceProblem, type RenderInput } from './api.js';
import { frontMatterSyntax } from './front-matter-syntax.js';
import { readSetting, settingChange } from './front-matter.js';
import { imageDrop } from './image-drop.js';
import { PagesView } from './pages-view.js';
import { problemFromService, problemsFromWarnings, type Problem } from './problems.js';
import { forgetKey, keepKey, storedKey } from './session.js';
import { SettingsDrawer } from './settings-drawer.js';
import { sourceOffsetOf } from './source-match.js';

/**
 * When previews are asked for while typing. The first change after a quiet spell is previewed at
 * once (the page answers the keystroke); changes that follow are gathered until typing pauses,
 * because previews are counted per hour. With few previews left, only pauses ask, and longer ones.
 */
const PREVIEW_PAUSE_MS = 250;
const QUIET_SPELL_MS = 1_000;
const SCARCE_PAUSE_MS = 1_000;
/** Below this share of the hour's previews left, previews are scarce. */
const SCARCE_SHARE = 0.1;
const DRAFT_KEY = 'quire.draft';
const SCHEME_KEY = 'quire.colorScheme';
const WELCOME = `---
title: A first document
---

# Hello

Write **Markdown** here; the pages on the right are the PDF you will download.

- Lists, tables, code, $E = mc^2$ and diagrams
- Drop or paste an image to embed it
`;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** Markdown colouring in each scheme: the same roles, colours readable (4.5:1) on its background. */
function markdownHighlight(colors: { heading: string; link: string; code: string; quote: string; meta: string; list: string }) {
  return HighlightStyle.define([
    { tag: tags.heading, color: colors.heading, fontWeight: 'bold' },
    { tag: [tags.emphasis], fontStyle: 'italic' },
    { tag: [tags.strong], fontWeight: 'bold' },
    { tag: [tags.link, tags.url], color: colors.link },
    { tag: [tags.monospace, tags.string], color: colors.code },
    { tag: [tags.quote, tags.comment], color: colors.quote },
    { tag: [tags.processingInstruction, tags.meta, tags.contentSeparator], color: colors.meta },
    { tag: tags.list, color: colors.list },
  ]);
}

const lightHighlight = markdownHighlight({ heading: '#0a4a9e', link: '#0550ae', code: '#953800', quote: '#57606a', meta: '#6e40c9', list: '#9a2c1f' });
const darkHighlight = markdownHighlight({ heading: '#79c0ff', link: '#a5d6ff', code: '#ffa657', quote: '#8b949e', meta: '#d2a8ff', list: '#ff7b72' });

class EditorApp {
  private key: string | null = storedKey();
  private readonly view: EditorView;
  private readonly pages: PagesView;
  private readonly settings: SettingsDrawer;
  private readonly highlight = new Compartment();
  private pauseTimer: number | undefined;
  /** The line typed on last, until a preview is asked for: its page is the one to draw. */
  private editedLine: { number: number; text: string } | null = null;
  private previewing = false;
  private previewAgain = false;
  /** When the text last changed and when a preview was last asked for (performance.now()). */
  private lastChangeAt = 0;
  private lastPreviewAt = -Infinity;
  private previewsLeft: { left: number; perHour: number } | null = null;
  private serviceProblem: Problem | null = null;
  private warnings: Problem[] = [];
  /** Idempotency-Key for the document as it is now; a new one once it changes. */
  private download: { key: string; input: string } | null = null;
  private downloading = false;
  /** Set while one side scrolls the other, so the echo is ignored. */
  private scrollLead: 'source' | 'pages' | null = null;
  /**
   * The last preview, for latency figures (the browser test reads them): the newest change it
   * carried, when it was asked for and shown, and how many pictures on screen it replaced.
   */
  readonly timing = { changedAt: 0, requestedAt: 0, answeredAt: 0, shownAt: 0, replaced: 0 };

  constructor() {
    const nonce = document.body.dataset.styleNonce ?? '';
    this.pages = new PagesView($('pages'), (page, fraction, text) => this.jumpToSource(page, fraction, text));
    this.settings = new SettingsDrawer(
      $<HTMLFormElement>('settings-form'),
      (key, value) => this.writeSetting(key, value),
      () => this.schedulePreview(0),
    );
    this.view = new EditorView({
      parent: $('source'),
      state: EditorState.create({
        doc: localStorage.getItem(DRAFT_KEY) ?? WELCOME,
        extensions: [
          EditorView.cspNonce.of(nonce),
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          EditorView.lineWrapping,
          markdown({ extensions: [frontMatterSyntax] }),
          this.highlight.of(syntaxHighlighting(this.dark() ? darkHighlight : lightHighlight)),
          lintGutter(),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorView.contentAttributes.of({ 'aria-label': 'Markdown source' }),
          imageDrop((message) => this.showStatus(message)),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            this.editedLine = update.state.doc.lineAt(update.state.selection.main.head);
            this.lastChangeAt = performance.now();
            localStorage.setItem(DRAFT_KEY, update.state.doc.toString());
            this.settings.showDocument(update.state.doc.toString());
            this.schedulePreview(this.pauseAfterChange());
          }),
        ],
      }),
    });
    this.settings.showDocument(this.text());
    this.wireChrome();
    this.wireScrolling();
    this.showSignedIn();
    if (this.key) this.schedulePreview(0);
  }

  private text(): string {
    return this.view.state.doc.toString();
  }

  private input(): RenderInput {
    return { markdown: this.text(), features: this.settings.features() };
  }

  private wireChrome(): void {
    document.querySelector('.skip')!.addEventListener('click', (event) => {
      event.preventDefault();
      this.view.focus();
    });
    $<HTMLFormElement>('signin').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.signIn($<HTMLInputElement>('api-key').value.trim());
    });
    $('signout').addEventListener('click', () => {
      forgetKey();
      this.key = null;
      this.showSignedIn();
    });
    $('download').addEventListener('click', () => void this.downloadPdf());
    const toggle = $<HTMLButtonElement>('settings-toggle');
    const drawer = $('settings');
    toggle.addEventListener('click', () => {
      const open = drawer.hidden;
      drawer.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
      if (open) drawer.querySelector<HTMLElement>('select, input')?.focus();
    });
    drawer.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      drawer.hidden = true;
      toggle.setAttribute('aria-expanded', 'false');
      toggle.focus();
    });
    const scheme = $<HTMLButtonElement>('scheme-toggle');
    scheme.addEventListener('click', () => {
      localStorage.setItem(SCHEME_KEY, this.dark() ? 'light' : 'dark');
      this.applyScheme();
    });
    this.applyScheme();
  }

  private dark(): boolean {
    const chosen = localStorage.getItem(SCHEME_KEY);
    return chosen ? chosen === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  }

  private applyScheme(): void {
    const dark = this.dark();
    document.documentElement.dataset.scheme = dark ? 'dark' : 'light';
    $('scheme-toggle').setAttribute('aria-pressed', String(dark));
    this.view?.dispatch({ effects: this.highlight.reconfigure(syntaxHighlighting(dark ? darkHighlight : lightHighlight)) });
  }

  private async signIn(key: string): Promise<void> {
    if (key === '') return;
    try {
      await fetchUsage(key);
    } catch (error) {
      this.showStatus(error instanceof ServiceProblem ? problemFromService(error, '').message : 'The service could not be reached.');
      return;
    }
    keepKey(key);
    this.key = key;
    $<HTMLInputElement>('api-key').value = '';
    this.showSignedIn();
    this.schedulePreview(0);
  }

  private showSignedIn(): void {
    $('signin').hidden = this.key !== null;
    $('signed-in').hidden = this.key === null;
    $<HTMLButtonElement>('download').disabled = this.key === null;
    if (this.key === null) this.showStatus('Sign in with an API key to see the pages.');
  }

  /** How long to wait after a change before asking for its preview. */
  private pauseAfterChange(): number {
    const scarce = this.previewsLeft !== null && this.previewsLeft.left < this.previewsLeft.perHour * SCARCE_SHARE;
    if (scarce) return SCARCE_PAUSE_MS;
    const quiet = !this.previewing && this.pauseTimer === undefined && performance.now() - this.lastPreviewAt >= QUIET_SPELL_MS;
    return quiet ? 0 : PREVIEW_PAUSE_MS;
  }

  private schedulePreview(delayMs: number): void {
    window.clearTimeout(this.pauseTimer);
    this.pauseTimer = window.setTimeout(() => {
      this.pauseTimer = undefined;
      void this.preview();
    }, delayMs);
  }

  private async preview(): Promise<void> {
    if (!this.key) return;
    if (this.previewing) {
      this.previewAgain = true;
      return;
    }
    this.previewing = true;
    this.lastPreviewAt = this.timing.requestedAt = performance.now();
    this.timing.changedAt = this.lastChangeAt;
    const source = this.text();
    try {
      const answer = await fetchPreview(this.key, this.input(), { known: this.pages.knownHashes(), shown: this.pages.shownHashes(), focus: this.focusPage() });
      this.timing.answeredAt = performance.now();
      this.timing.replaced = this.pages.update(answer.pages);
      // The pages just drawn hold text the source's place can now be found by.
      if (this.lastScrolled === 'source') this.followSource();
      this.timing.shownAt = performance.now();
      this.serviceProblem = null;
      this.warnings = problemsFromWarnings(answer.warnings, source);
      this.previewsLeft = { left: answer.previews_left, perHour: answer.previews_per_hour };
      $('previews-left').textContent = `${answer.previews_left} of ${answer.previews_per_hour} previews left this hour`;
      $('page-count').textContent = `${answer.pages.length} ${answer.pages.length === 1 ? 'page' : 'pages'}`;
    } catch (error) {
      // The last good pages stay: never a blank preview.
      this.serviceProblem =
        error instanceof ServiceProblem
          ? problemFromService(error, source)
          : { code: 'network', message: 'The service could not be reached.', line: null, severity: 'error' };
      if (
        error instanceof ServiceProblem &&
        error.code === 'rate_limited' &&
        (error.details.limit as { name?: string } | undefined)?.name === 'previews_per_hour'
      ) {
        this.previewsLeft = { left: 0, perHour: this.previewsLeft?.perHour ?? 1 };
        $('previews-left').textContent = '0 previews left this hour';
      }
      if (error instanceof ServiceProblem && error.code === 'unauthorized') this.signOutQuietly();
    } finally {
      this.previewing = false;
      this.showProblems();
      if (this.previewAgain) {
        this.previewAgain = false;
        this.schedulePreview(0);
      }
    }
  }

  /** The page to draw around: the one showing the line just typed on, else the one in view. */
  private focusPage(): number {
    const inView = this.pages.pageInView();
    const edited = this.editedLine;
    this.editedLine = null;
    if (!edited) return inView;
    const share = (edited.number - 1) / Math.max(1, this.view.state.doc.lines - 1);
    return this.pages.pageOfText(edited.text, Math.round(share * Math.max(0, this.pages.pageCount - 1)));
  }

  private signOutQuietly(): void {
    forgetKey();
    this.key = null;
    this.showSignedIn();
  }

  private showProblems(): void {
    const problems = [...(this.serviceProblem ? [this.serviceProblem] : []), ...this.warnings];
    const list = $('problems');
    list.replaceChildren(
      ...problems.map((problem) => {
        const item = document.createElement('li');
        item.className = problem.severity;
        const code = document.createElement('code');
        code.textContent = problem.code;
        item.append(problem.line === null ? '' : `Line ${problem.line}: `, problem.message, ' ', code);
        return item;
      }),
    );
    list.hidden = problems.length === 0;
    const doc = this.view.state.doc;
    const diagnostics: Diagnostic[] = problems
      .filter((problem) => problem.line !== null && problem.line <= doc.lines)
      .map((problem) => {
        const line = doc.line(problem.line!);
        return { from: line.from, to: line.to, severity: problem.severity, message: `${problem.message} (${problem.code})` };
      });
    this.view.dispatch(setDiagnostics(this.view.state, diagnostics));
  }

  private async downloadPdf(): Promise<void> {
    if (!this.key || this.downloading) return;
    const input = this.input();
    const state = JSON.stringify(input);
    if (this.download?.input !== state) this.download = { key: crypto.randomUUID(), input: state };
    this.downloading = true;
    const button = $<HTMLButtonElement>('download');
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    try {
      const filename = `${
        (readSetting(input.markdown, 'title') ?? 'document')
          .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
          .trim()
          .slice(0, 80) || 'document'
      }.pdf`;
      const { pdf, replay } = await fetchPdf(this.key, input, this.download.key, filename);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(pdf);
      link.download = filename;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      this.showStatus(replay ? 'Downloaded again at no charge.' : 'Downloaded; one document counted.');
    } catch (error) {
      if (error instanceof ServiceProblem && error.code === 'idempotency_replay_limit') this.download = null;
      this.serviceProblem =
        error instanceof ServiceProblem
          ? problemFromService(error, input.markdown)
          : { code: 'network', message: 'The service could not be reached.', line: null, severity: 'error' };
      this.showProblems();
    } finally {
      this.downloading = false;
      button.disabled = this.key === null;
      button.removeAttribute('aria-busy');
    }
  }

  private writeSetting(key: string, value: string | null): void {
    const change = settingChange(this.text(), key, value);
    if (change) this.view.dispatch({ changes: change });
  }

  /**
   * A click on a page puts the cursor on the source line of the text clicked: the page line's
   * words found in the Markdown nearest that share of the document (the share alone when the
   * line has no words to find, such as a drawing).
   */
  private jumpToSource(pageIndex: number, fractionDown: number, lineText: string | null): void {
    if (pageIndex < 0) return;
    const doc = this.view.state.doc;
    const share = (pageIndex + Math.min(1, Math.max(0, fractionDown))) / Math.max(1, this.pages.pageCount);
    const estimate = Math.round(share * doc.length);
    const at = lineText === null ? estimate : sourceOffsetOf(lineText, doc.toString(), estimate);
    const line = doc.lineAt(Math.min(doc.length, at));
    this.view.dispatch({ selection: { anchor: line.from }, effects: EditorView.scrollIntoView(line.from, { y: 'center' }) });
    this.view.focus();
  }

  /** Each side follows the other by share of the document: the top line's share of the source, the pages' share of their height. */
  private wireScrolling(): void {
    const source = this.view.scrollDOM;
    const pages = $('pages');
    // Each pane follows the other to the same text: a source line's words found on the pages
    // drawn, a page line's words found in the source; the same share of the document where the
    // words are not found (a blank line, a drawing, a page not drawn yet).
    source.addEventListener('scroll', () => {
      if (this.scrollLead === 'pages') return;
      this.lead('source');
      this.lastScrolled = 'source';
      this.followSource();
    });
    pages.addEventListener('scroll', () => {
      // Scrolled to pages the last preview did not draw: one preview draws those near.
      if (this.pages.undrawnInView()) this.schedulePreview(PREVIEW_PAUSE_MS);
      if (this.scrollLead === 'source') return;
      this.lead('pages');
      this.lastScrolled = 'pages';
      const doc = this.view.state.doc;
      const place = this.pages.placeInView();
      const estimate = Math.round(((place.page + place.fraction) / Math.max(1, this.pages.pageCount)) * doc.length);
      const at = place.text === null ? estimate : sourceOffsetOf(place.text, doc.toString(), estimate);
      source.scrollTop = this.view.lineBlockAt(doc.lineAt(Math.min(doc.length, at)).from).top;
    });
  }

  /** Which pane the person scrolled last: the other follows it, again once new pages are drawn. */
  private lastScrolled: 'source' | 'pages' = 'source';

  /** The pages scrolled to the text at the top of the source. */
  private followSource(): void {
    const doc = this.view.state.doc;
    const source = this.view.scrollDOM;
    // The height in the document at the top of the pane (documentTop moves up as the pane scrolls).
    const top = doc.lineAt(this.view.lineBlockAtHeight(source.getBoundingClientRect().top - this.view.documentTop).from);
    const share = (top.number - 1) / Math.max(1, doc.lines - 1);
    const estimate = Math.round(share * Math.max(0, this.pages.pageCount - 1));
    const place = this.pages.placeOfText(firstWordsFrom(doc, top.number), estimate);
    this.lead('source');
    if (place && Math.abs(place.page - estimate) <= Math.max(3, this.pages.pageCount / 4)) this.pages.scrollToPlace(place.page, place.fraction);
    else this.pages.scrollToFraction(share);
  }

  private leadTimer: number | undefined;

  private lead(side: 'source' | 'pages'): void {
    this.scrollLead = side;
    window.clearTimeout(this.leadTimer);
    this.leadTimer = window.setTimeout(() => (this.scrollLead = null), 150);
  }

  private showStatus(message: string): void {
    $('status').textContent = message;
  }
}

declare global {
  interface Window {
    quireEditor: EditorApp;
  }
}

window.quireEditor = new EditorApp();

/** The first three words at or below line `from` (a short line, such as a heading, goes on into the next ones). */
function firstWordsFrom(doc: Text, from: number): string {
  const words: string[] = [];
  for (let number = from; number <= Math.min(doc.lines, from + 5) && words.length < 3; number += 1) {
    words.push(...(doc.line(number).text.match(/[\p{L}\p{N}]{3,}/gu) ?? []));
  }
  return words.slice(0, 3).join(' ');
}
