/**
 * GET /editor: one HTML page that loads the bundled editor. A fresh nonce per response lets
 * CodeMirror's own style sheets in under a strict Content-Security-Policy; everything else comes
 * from this origin only, and the page may not be framed.
 */
import { randomBytes } from 'node:crypto';
import { editorManifest } from './editor-assets.js';

/** The page, or undefined when this installation has no editor bundle (built without `npm run build`'s last step). */
export function editorPage(): Response | undefined {
  const built = editorManifest();
  if (!built) return undefined;
  const nonce = randomBytes(16).toString('base64');
  const { script, style } = built;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quire editor</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/editor/assets/${style}">
<script type="module" src="/editor/assets/${script}"></script>
</head>
<body data-style-nonce="${nonce}">
<a class="skip" href="#source">Skip to the Markdown</a>
<header class="bar">
  <h1>Quire</h1>
  <form id="signin" class="signin">
    <label for="api-key">API key</label>
    <input id="api-key" type="password" autocomplete="off" spellcheck="false" required>
    <button type="submit">Sign in</button>
  </form>
  <span id="signed-in" class="signed-in" hidden>Signed in <button id="signout" type="button">Sign out</button></span>
  <span id="previews-left" class="meter" aria-live="polite"></span>
  <span id="page-count" class="meter" aria-live="polite"></span>
  <span class="spacer"></span>
  <button id="settings-toggle" type="button" aria-expanded="false" aria-controls="settings">Settings</button>
  <button id="scheme-toggle" type="button" aria-pressed="false">Dark mode</button>
  <button id="download" type="button" class="primary" disabled>Download PDF</button>
</header>
<p id="status" class="status" role="status"></p>
<ul id="problems" class="problems" role="alert" hidden></ul>
<aside id="settings" class="settings" hidden aria-label="Document settings">
  <form id="settings-form">
    <fieldset><legend>Document (front matter)</legend>
      <label>Theme <select name="theme"><option value="">default</option><option>light</option><option>dark</option></select></label>
      <label>Paper <select name="paper"><option value="">default (A4)</option><option>a4</option><option>a5</option><option>letter</option><option>legal</option></select></label>
      <label>Orientation <select name="orientation"><option value="">default</option><option>portrait</option><option>landscape</option></select></label>
      <label>Language <input name="language" placeholder="en, de-CH…" size="8"></label>
      <label><input type="checkbox" name="toc"> Table of contents</label>
      <label>Font size <input name="font_size" placeholder="10.5pt" size="6"></label>
      <label>Columns <select name="columns"><option value="">1</option><option>2</option><option>3</option></select></label>
      <label>Accent <input type="color" name="accent"></label>
      <label>Watermark <input name="watermark" placeholder="DRAFT" size="10"></label>
    </fieldset>
    <fieldset><legend>Features</legend>
      <label><input type="checkbox" name="feature-math"> Math</label>
      <label><input type="checkbox" name="feature-mermaid"> Mermaid diagrams</label>
      <label><input type="checkbox" name="feature-highlight"> Code colours</label>
      <label><input type="checkbox" name="feature-emoji"> Emoji</label>
      <label><input type="checkbox" name="feature-smart_typography"> Smart typography</label>
      <label><input type="checkbox" name="feature-tasks"> Task lists</label>
      <label><input type="checkbox" name="feature-images"> Images</label>
      <label><input type="checkbox" name="feature-hyphenation"> Hyphenation</label>
      <label><input type="checkbox" name="feature-tagged"> Tagged PDF</label>
    </fieldset>
  </form>
</aside>
<main class="panes">
  <section id="source" class="source" aria-label="Markdown source"></section>
  <section id="pages" class="pages" aria-label="Pages as they will print" tabindex="0"></section>
</main>
</body>
</html>
`;
  return new Response(html, {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': contentSecurityPolicy(nonce),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
  });
}

function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
