import { Parser } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import type { Anchor } from '../../document/types.js';
import type { HtmlEnv } from './env.js';

/** The names an element is a link target by: its `id`, and an `<a>`'s `name` (HTML 4's anchors). */
function targetNames(tag: string, attribs: Record<string, string>): string[] {
  const names = attribs.id ? [attribs.id] : [];
  if (tag === 'a' && attribs.name && attribs.name !== attribs.id) names.push(attribs.name);
  return names;
}

/** Every target name in a piece of HTML, in order: read before the document is built, so links before their target resolve. */
export function htmlTargetNames(html: string): string[] {
  const names: string[] = [];
  const parser = new Parser(
    { onopentag: (tag, attribs) => names.push(...targetNames(tag, attribs)) },
    { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true },
  );
  parser.end(html);
  return names;
}

/** The element's own anchors. */
export function anchorsOf(element: Element, env: HtmlEnv): Anchor[] {
  return anchors(targetNames(element.name, element.attribs), env);
}

/** The anchors of nodes and everything in them: for content left out (hidden) or read as plain text (`<pre>`). */
export function anchorsWithin(nodes: readonly ChildNode[], env: HtmlEnv): Anchor[] {
  const names: string[] = [];
  const stack: ChildNode[] = [...nodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type !== 'tag') continue;
    names.push(...targetNames(node.name, node.attribs));
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return anchors(names, env);
}

function anchors(names: readonly string[], env: HtmlEnv): Anchor[] {
  return names.flatMap((name) => {
    const dest = env.context.links.htmlTarget(name);
    return dest === null ? [] : [{ kind: 'anchor', name: dest }];
  });
}
