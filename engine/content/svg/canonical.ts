import type { ChildNode, Document, Element, ParentNode } from 'domhandler';

export const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
export const XLINK_NAMESPACE = 'http://www.w3.org/1999/xlink';
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/**
 * The namespaced attributes kept, by namespace: their prefix and local names. resvg reads an
 * attribute of the SVG, XLink or XML namespace by its local name alone (`xml:href` is an href to
 * it), so any other is dropped rather than left for a reader to take for something else.
 */
const KEPT_NAMESPACED = new Map([
  [XLINK_NAMESPACE, { prefix: 'xlink', names: new Set(['href']) }],
  [XML_NAMESPACE, { prefix: 'xml', names: new Set(['space', 'lang']) }],
]);
/** SVG elements that carry another language; no reader here runs or draws them. */
const FOREIGN_CONTENT = new Set(['script', 'foreignObject']);
/** Names an XML reader accepts as they are (no colon: prefixes are resolved before this test). */
const PLAIN_NAME = /^[A-Za-z_][\w.-]*$/;

type Scope = ReadonlyMap<string, string>;

/**
 * Rewrites a parsed SVG in place into the one form every later reader agrees on. Namespaces are
 * resolved as an XML reader resolves them — resvg does, so an `href` hidden under another
 * prefix (`x:href` with `xmlns:x` bound to XLink) is a link to it — and then written plainly:
 * elements of the SVG namespace under their local names, everything else dropped with its
 * content (and `<script>` and `<foreignObject>`); attributes in no namespace as they are, XLink and XML ones as `xlink:…` and
 * `xml:…`, any other dropped. Afterwards every link in the tree is an attribute named `href`
 * or `xlink:href`, where the checks that follow look for it.
 *
 * Like an SVG inside HTML, a document that declares no default namespace is read as SVG, and an
 * undeclared `xlink:` prefix as XLink.
 */
export function canonicalizeSvg(document: Document): void {
  const initial: Scope = new Map([
    ['', SVG_NAMESPACE],
    ['xlink', XLINK_NAMESPACE],
    ['xml', XML_NAMESPACE],
  ]);
  const stack: Array<{ parent: ParentNode; scope: Scope }> = [{ parent: document, scope: initial }];
  while (stack.length > 0) {
    const { parent, scope } = stack.pop()!;
    const kept: ChildNode[] = [];
    for (const child of parent.children) {
      if (child.type !== 'tag') {
        kept.push(child);
        continue;
      }
      const childScope = declaredScope(child, scope);
      const name = resolve(child.name, childScope, '');
      if (name?.namespace !== SVG_NAMESPACE || !PLAIN_NAME.test(name.local) || FOREIGN_CONTENT.has(name.local)) continue;
      child.name = name.local;
      child.attribs = canonicalAttributes(child.attribs, childScope);
      kept.push(child);
      stack.push({ parent: child, scope: childScope });
    }
    if (kept.length !== parent.children.length) replaceChildren(parent, kept);
  }
}

/** The scope inside an element: its parent's, with the element's own `xmlns` declarations. */
function declaredScope(element: Element, parent: Scope): Scope {
  let scope: Map<string, string> | undefined;
  for (const [name, value] of Object.entries(element.attribs)) {
    if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
    scope ??= new Map(parent);
    scope.set(name === 'xmlns' ? '' : name.slice('xmlns:'.length), value);
  }
  return scope ?? parent;
}

/** A qualified name's namespace and local name; null for an undeclared prefix. */
function resolve(qualified: string, scope: Scope, unprefixed: string | undefined): { namespace: string; local: string } | null {
  const colon = qualified.indexOf(':');
  if (colon === -1) return unprefixed === undefined ? null : { namespace: scope.get(unprefixed) ?? '', local: qualified };
  const namespace = scope.get(qualified.slice(0, colon));
  return namespace === undefined ? null : { namespace, local: qualified.slice(colon + 1) };
}

function canonicalAttributes(attributes: Record<string, string>, scope: Scope): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [qualified, value] of Object.entries(attributes)) {
    if (qualified === 'xmlns' || qualified.startsWith('xmlns:')) continue;
    // Attributes without a prefix are in no namespace, whatever the default namespace is.
    const name = qualified.includes(':') ? resolve(qualified, scope, undefined) : { namespace: '', local: qualified };
    if (!name || !PLAIN_NAME.test(name.local)) continue;
    const namespaced = KEPT_NAMESPACED.get(name.namespace);
    if (name.namespace !== '' && !namespaced?.names.has(name.local)) continue;
    const canonical = namespaced ? `${namespaced.prefix}:${name.local}` : name.local;
    // Two spellings of one name: an XML reader refuses the element; keeping the first is as safe.
    if (!(canonical in kept)) kept[canonical] = value;
  }
  return kept;
}

/** Children dropped in one pass, however many (one removal at a time would be quadratic). */
function replaceChildren(parent: ParentNode, children: ChildNode[]): void {
  parent.children = children;
  children.forEach((child, i) => {
    child.prev = children[i - 1] ?? null;
    child.next = children[i + 1] ?? null;
  });
}
