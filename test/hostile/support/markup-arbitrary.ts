/**
 * fast-check arbitraries of hostile SVG and HTML: elements and attributes under any prefix, with
 * namespaces declared anywhere (XLink, SVG, others, none), links to the planted targets spelled
 * every way (character references, file: URLs, relative paths, case, white space), embedded
 * images (honest, bombs, nested SVG), CSS that names files, CDATA, comments, processing
 * instructions and entity declarations.
 */
import fc from 'fast-check';
import { XLINK } from './link-attacks.js';

const SVG = 'http://www.w3.org/2000/svg';
const NAMESPACES = [XLINK, SVG, 'urn:other', 'http://www.w3.org/1999/xhtml'];
/** Prefixes a document binds (each on the root, some again inside); `xml` is bound by XML itself. */
const BINDABLE = ['x', 'xlink', 'svg', 'foo'];
const PREFIXES = [...BINDABLE, 'xml'];
/** Elements, those that load pictures listed again to come up more often. */
const ELEMENTS = [
  'image',
  'image',
  'image',
  'feImage',
  'feImage',
  'use',
  'g',
  'g',
  'svg',
  'switch',
  'filter',
  'pattern',
  'mask',
  'clipPath',
  'marker',
  'a',
  'style',
  'text',
  'textPath',
  'linearGradient',
  'foreignObject',
  'script',
  'defs',
  'symbol',
  'rect',
  'path',
  'img',
  'iframe',
];
const ATTRIBUTES = [
  'href',
  'src',
  'filter',
  'fill',
  'style',
  'width',
  'height',
  'mask',
  'clip-path',
  'marker-end',
  'xml:base',
  'requiredFeatures',
  'systemLanguage',
  'd',
  'stdDeviation',
];
const IDS = ['a', 'b', 'f', 'p'];
const HONEST_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

export interface MarkupOptions {
  /** Every spelling of every target, as documents write them. */
  hrefs: string[];
  /** A PNG bomb (small, inflating past its header), as Base64. */
  bombPng: string;
}

/** A target spelled one of the ways an XML or HTML reader would still read as that path. */
function spelledLink(options: MarkupOptions): fc.Arbitrary<string> {
  const target = fc.constantFrom(...options.hrefs);
  return fc.oneof(
    target,
    target.map((href) => [...href].map((char) => `&#${char.codePointAt(0)};`).join('')),
    target.map((href) => [...href].map((char) => (char === '/' ? '&#x2F;' : char)).join('')),
    target.map((href) => ` \n${href}\t`),
    target.map((href) => href.replace(/^file:/, 'FILE:')),
    target.map((href) => `${href}#a`),
    fc.constantFrom(...IDS.map((id) => `#${id}`), '#missing', `data:image/png;base64,${HONEST_PNG}`, `data:image/png;base64,${options.bombPng}`),
  );
}

/** A name, under a prefix about as often as `prefixed` in 1. */
function qualified(names: readonly string[], prefixed: number): fc.Arbitrary<string> {
  const prefix = fc.oneof(
    { weight: Math.round((1 - prefixed) * 10), arbitrary: fc.constant('') },
    { weight: Math.round(prefixed * 10), arbitrary: fc.constantFrom(...PREFIXES) },
  );
  return fc.tuple(prefix, fc.constantFrom(...names)).map(([chosen, name]) => (chosen === '' ? name : `${chosen}:${name}`));
}

/** `xmlns:p="…"`: a prefix bound to a namespace (often XLink, the one links live in). */
function declaration(prefix: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const uri = fc.oneof({ weight: 2, arbitrary: fc.constant(XLINK) }, { weight: 3, arbitrary: fc.constantFrom(...NAMESPACES) });
  return fc.tuple(prefix, uri).map(([name, namespace]) => `xmlns:${name}="${namespace}"`);
}

/** Attributes with distinct names, as well-formed XML needs (what is not well formed never reaches resvg). */
function attributes(attribute: fc.Arbitrary<string>, maxLength: number): fc.Arbitrary<string> {
  return fc.uniqueArray(attribute, { maxLength, selector: (text) => text.slice(0, text.indexOf('=')) }).map((list) => list.join(' '));
}

/** One attribute, a namespace declaration now and then. */
function attribute(options: MarkupOptions): fc.Arbitrary<string> {
  const link = spelledLink(options);
  return fc.oneof(
    { weight: 5, arbitrary: fc.tuple(qualified(['href', 'src'], 0.7), link).map(([name, value]) => `${name}="${value}"`) },
    { weight: 2, arbitrary: declaration(fc.constantFrom(...BINDABLE)) },
    { weight: 1, arbitrary: fc.constantFrom(...NAMESPACES, '').map((uri) => `xmlns="${uri}"`) },
    { weight: 1, arbitrary: fc.tuple(qualified(ATTRIBUTES, 0.3), link).map(([name, value]) => `${name}="url(${value})"`) },
    { weight: 1, arbitrary: fc.constantFrom(...IDS).map((id) => `id="${id}"`) },
    { weight: 1, arbitrary: fc.constant('xml:space="preserve"') },
    // What sends a picture through resvg: an effect, a marker.
    { weight: 2, arbitrary: fc.constantFrom('filter="url(#f)"', 'mask="url(#a)"', 'clip-path="url(#p)"', 'marker-end="url(#b)"') },
    { weight: 1, arbitrary: fc.constantFrom('width="10"', 'height="10"', 'stdDeviation="2"', 'd="M0 0 L10 10"', 'stroke="red"') },
  );
}

/** CSS or text an element may hold. */
function content(options: MarkupOptions): fc.Arbitrary<string> {
  const link = spelledLink(options);
  return fc.oneof(
    link.map((href) => `@import url("${href}"); rect { fill: url("${href}"); background: url(${href}) }`),
    link.map((href) => `<![CDATA[@import "${href}";]]>`),
    fc.constantFrom('text', '<!-- <image href="/etc/passwd"/> -->', '<?xml-stylesheet href="/etc/passwd"?>', '&amp;&lt;&#47;'),
  );
}

/** An element tree of at most `depth` levels. */
function element(options: MarkupOptions, depth: number): fc.Arbitrary<string> {
  const children =
    depth <= 1
      ? fc.constant([] as string[])
      : fc.array(fc.oneof({ weight: 3, arbitrary: element(options, depth - 1) }, { weight: 1, arbitrary: content(options) }), { maxLength: 3 });
  return fc
    .tuple(qualified(ELEMENTS, 0.15), attributes(attribute(options), 4), children)
    .map(([name, list, inner]) => `<${name} ${list}>${inner.join('')}</${name}>`);
}

/** A whole SVG document: usually well formed, sometimes with a prologue, a DOCTYPE or an entity. */
export function hostileSvg(options: MarkupOptions): fc.Arbitrary<string> {
  const prologue = fc.constantFrom('', '<?xml version="1.0"?>', '<!DOCTYPE svg>', '<!DOCTYPE svg [<!ENTITY e SYSTEM "/etc/passwd">]>', '\ufeff');
  const rootDeclarations = fc.tuple(...BINDABLE.map((prefix) => declaration(fc.constant(prefix)))).map((list) => list.join(' '));
  return fc
    .tuple(prologue, rootDeclarations, fc.array(element(options, 4), { minLength: 1, maxLength: 4 }))
    .map(
      ([head, declarations, body]) =>
        `${head}<svg xmlns="${SVG}" width="20" height="20" ${declarations}><filter id="f"><feGaussianBlur stdDeviation="1"/></filter>${body.join('')}</svg>`,
    );
}

/** A Markdown document carrying hostile markup: an SVG as a data: image (maybe inside another SVG's image), or as HTML. */
export function hostileDocument(options: MarkupOptions): fc.Arbitrary<string> {
  const svg = hostileSvg(options);
  const base64 = (text: string) => Buffer.from(text).toString('base64');
  return fc.oneof(
    { weight: 4, arbitrary: svg.map((text) => `![svg](data:image/svg+xml;base64,${base64(text)})`) },
    {
      weight: 1,
      arbitrary: svg.map(
        (text) =>
          `![nested](data:image/svg+xml;base64,${base64(`<svg xmlns="${SVG}" xmlns:x="${XLINK}" width="20" height="20"><image x:href="data:image/svg+xml;base64,${base64(text)}" width="20" height="20"/></svg>`)})`,
      ),
    },
    { weight: 2, arbitrary: fc.array(element(options, 3), { minLength: 1, maxLength: 3 }).map((html) => `<div>\n${html.join('\n')}\n</div>\n\nText after.`) },
  );
}
