/**
 * Documents that try to make the renderer read a file it was not given: every way an SVG, HTML
 * or Markdown can name a path, aimed at files outside the documents' folder — a picture, a FIFO
 * (an open that blocks for ever), `/dev/zero` (a read without end), system files.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { pngFile } from '../../support/png-file.js';
import type { CorpusDocument } from './render-corpus.js';

export const XLINK = 'http://www.w3.org/1999/xlink';
const SVG = 'http://www.w3.org/2000/svg';

export interface Targets {
  /** Every spelling of every target, as a document would write it. */
  hrefs: string[];
  /** The files themselves, none of which may ever be opened. */
  files: string[];
}

/** Plants the targets in `outside` (a sibling of the documents' `folder`). */
export function plantTargets(folder: string, outside: string): Targets {
  const picture = path.join(outside, 'secret.png');
  writeFileSync(picture, redPng());
  const fifo = path.join(outside, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const relative = path.relative(folder, picture);
  const files = [picture, fifo, '/dev/zero', '/etc/passwd', '/proc/self/environ'];
  return { files, hrefs: [...files, `file://${picture}`, relative, `./${relative}`, `file:${fifo}`, encodeURI(`file://${picture}`).replaceAll('/', '%2F')] };
}

/** An 8×8 red PNG: if it is read, the page shows it. */
function redPng(): Buffer {
  const rows = Buffer.concat(Array.from({ length: 8 }, () => Buffer.from([0, ...Array.from({ length: 8 }, () => [0xff, 0, 0]).flat()])));
  return pngFile(8, 8, 2, deflateSync(rows));
}

/** SVG bodies, each linking `href` one way (svgDocument puts them under a blur, so resvg reads them). */
const SVG_LINKS: Array<[string, (href: string) => string]> = [
  ['an XLink href under another prefix, in a switch', (href) => `<switch><image x:href="${href}" width="10" height="10"/></switch>`],
  [
    'an XLink href under a prefix declared on the element',
    (href) => `<g filter="url(#blur)"><image xmlns:l="${XLINK}" l:href="${href}" width="10" height="10"/></g>`,
  ],
  ['a plain href in a filtered group', (href) => `<g filter="url(#blur)"><image href="${href}" width="10" height="10"/></g>`],
  ['an xlink:href', (href) => `<image xlink:href="${href}" width="10" height="10"/>`],
  // Found by the fuzzer: resvg reads SVG-, XLink- and XML-namespace attributes by local name.
  ['an href in the XML namespace', (href) => `<image xml:href="${href}" width="10" height="10"/>`],
  ['an href in the SVG namespace under a prefix', (href) => `<image xmlns:s="${SVG}" s:href="${href}" width="10" height="10"/>`],
  ['an image element under an SVG prefix', (href) => `<s:image xmlns:s="${SVG}" href="${href}" width="10" height="10"/>`],
  ['an feImage', (href) => `<filter id="read"><feImage x:href="${href}"/></filter><rect width="10" height="10" filter="url(#read)"/>`],
  ['a use of an element in another file', (href) => `<use x:href="${href}#a"/><use href="${href}"/>`],
  [
    'a pattern and a gradient inheriting from a file',
    (href) => `<pattern id="p" x:href="${href}"/><linearGradient id="g" xlink:href="${href}"/><rect width="10" height="10" fill="url(#p)"/>`,
  ],
  [
    'character references spelling the path',
    (href) => `<image x:href="${[...href].map((char) => `&#${char.codePointAt(0)};`).join('')}" width="10" height="10"/>`,
  ],
  [
    'CSS naming the file',
    (href) => `<style>@import url("${href}"); rect { fill: url("${href}#x"); }</style><rect width="10" height="10" style="filter: url('${href}#f')"/>`,
  ],
  [
    'a marker drawn through resvg',
    (href) => `<marker id="m"><image x:href="${href}" width="5" height="5"/></marker><path d="M0 0 L10 10" stroke="black" marker-end="url(#m)"/>`,
  ],
  [
    'an href in a nested svg with a new default namespace',
    (href) => `<svg xmlns="${SVG}" xmlns:x="${XLINK}"><image x:href="${href}" width="10" height="10"/></svg>`,
  ],
  ['an href on a text path', (href) => `<text><textPath x:href="${href}">read</textPath></text>`],
];

function svgDocument(body: string): string {
  return `<svg xmlns="${SVG}" xmlns:x="${XLINK}" xmlns:xlink="${XLINK}" width="20" height="20" viewBox="0 0 20 20"><filter id="blur"><feGaussianBlur stdDeviation="1"/></filter><g filter="url(#blur)">${body}</g></svg>`;
}

function dataUri(type: string, content: string | Uint8Array): string {
  return `data:${type};base64,${Buffer.from(content).toString('base64')}`;
}

/** HTML and Markdown ways to name an image (or anything else a browser would load). */
const PAGE_LINKS: Array<[string, (href: string) => string]> = [
  ['a Markdown image', (href) => `![x](<${href}>)`],
  ['a reference image', (href) => `![x][secret]\n\n[secret]: <${href}>`],
  [
    'an HTML img, srcset and picture',
    (href) =>
      `<p><img src="${href}"><img srcset="${href} 2x"><picture><source srcset="${href}" media="(prefers-color-scheme: light)"><img src="none.png"></picture></p>`,
  ],
  [
    'HTML that loads by other elements',
    (href) =>
      `<div style="background: url('${href}')"><link rel="stylesheet" href="${href}"><object data="${href}"></object><embed src="${href}"><iframe src="${href}"></iframe><video poster="${href}"></video><input type="image" src="${href}"><table background="${href}"><tr><td>x</td></tr></table></div>`,
  ],
  ['HTML style sheets', (href) => `<style>@import url("${href}"); p { background-image: url("${href}"); }</style><p>styled</p>`],
  ['an inline SVG in HTML', (href) => `<div><svg xmlns:x="${XLINK}"><image x:href="${href}"/></svg></div>`],
];

/**
 * The attack documents: each SVG link both as a data: URI image and as an SVG file in the
 * folder (written here), one more SVG nested inside an SVG's data: image, each page link, and
 * each target as the title page's cover image.
 */
export function linkAttackCorpus(folder: string, targets: Targets): CorpusDocument[] {
  const documents: CorpusDocument[] = [];
  for (const [index, [name, link]] of SVG_LINKS.entries()) {
    const svg = svgDocument(targets.hrefs.map(link).join(''));
    writeFileSync(path.join(folder, `attack-${index}.svg`), svg);
    documents.push({ name: `svg: ${name} (data: URI)`, markdown: `![svg](${dataUri('image/svg+xml', svg)})` });
    documents.push({ name: `svg: ${name} (a file beside the document)`, markdown: `![svg](attack-${index}.svg)` });
    const nested = svgDocument(`<image x:href="${dataUri('image/svg+xml', svg)}" width="10" height="10"/>`);
    documents.push({ name: `svg: ${name} (nested in an SVG's image)`, markdown: `![svg](${dataUri('image/svg+xml', nested)})` });
  }
  for (const [name, link] of PAGE_LINKS) {
    documents.push({ name: `page: ${name}`, markdown: targets.hrefs.map(link).join('\n\n') });
  }
  // Front matter names one picture per document: the title page's cover.
  for (const [index, href] of targets.hrefs.entries()) {
    documents.push({
      name: `front matter: cover_image ${index}`,
      markdown: `---\ntitle: Cover\ntitle_page: true\ncover_image: ${JSON.stringify(href)}\n---\n\n# Cover`,
    });
  }
  return documents;
}
