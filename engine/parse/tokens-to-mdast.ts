import type { Token } from 'markdown-it';
import type {
  AlignType,
  Blockquote,
  FootnoteDefinition,
  Heading,
  List,
  ListItem,
  Nodes,
  Parents,
  PhrasingContent,
  Root,
  Table,
  TableCell,
  TableRow,
} from 'mdast';
import { pushAll } from '../push-all.js';

/**
 * markdown-it's token stream → mdast, the tree the rest of the engine reads. markdown-it parses
 * CommonMark 0.31 about twenty times faster than micromark on real documents; mdast keeps the
 * build stage independent of the parser.
 */
export function tokensToMdast(tokens: Token[], options: { tasks: boolean }): Root {
  const root: Root = { type: 'root', children: [] };
  const stack: Parents[] = [root];
  const top = () => stack[stack.length - 1]!;
  const open = (node: Parents) => {
    (top() as { children: Nodes[] }).children.push(node);
    stack.push(node);
  };
  const add = (node: Nodes) => (top() as { children: Nodes[] }).children.push(node);
  let tableAlign: AlignType[] = [];
  /** Open lists with their nesting level; a visible paragraph in one of its items makes it loose. */
  const lists: Array<{ node: List; level: number }> = [];

  for (const token of tokens) {
    switch (token.type) {
      case 'paragraph_open': {
        const list = lists[lists.length - 1];
        if (list && token.level === list.level + 2 && !token.hidden) list.node.spread = true;
        open({ type: 'paragraph', children: [] });
        break;
      }
      case 'heading_open':
        open({ type: 'heading', depth: Number(token.tag.slice(1)) as Heading['depth'], children: [] });
        break;
      case 'blockquote_open':
        open({ type: 'blockquote', children: [] } as Blockquote);
        break;
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const start = token.attrGet('start');
        const list = {
          type: 'list',
          ordered: token.type === 'ordered_list_open',
          start: start === null ? 1 : Number(start),
          spread: false,
          children: [],
        } as List;
        lists.push({ node: list, level: token.level });
        open(list);
        break;
      }
      case 'list_item_open':
        open({ type: 'listItem', spread: false, checked: null, children: [] } as ListItem);
        break;
      case 'table_open':
        tableAlign = [];
        open({ type: 'table', align: tableAlign, children: [] } as Table);
        break;
      case 'tr_open':
        open({ type: 'tableRow', children: [] } as TableRow);
        break;
      case 'th_open':
        tableAlign.push(alignOf(token));
        open({ type: 'tableCell', children: [] } as TableCell);
        break;
      case 'td_open':
        open({ type: 'tableCell', children: [] } as TableCell);
        break;
      case 'footnote_open':
        open({ type: 'footnoteDefinition', identifier: footnoteId(token), label: footnoteId(token), children: [] } as FootnoteDefinition);
        break;
      case 'paragraph_close':
      case 'heading_close':
      case 'blockquote_close':
      case 'list_item_close':
      case 'table_close':
      case 'tr_close':
      case 'th_close':
      case 'td_close':
      case 'footnote_close':
        stack.pop();
        break;
      case 'bullet_list_close':
      case 'ordered_list_close': {
        const list = stack.pop() as List;
        lists.pop();
        if (options.tasks) list.children.forEach(readTaskMarker);
        break;
      }
      case 'inline':
        pushAll((top() as { children: PhrasingContent[] }).children, inlineNodes(token.children ?? []));
        break;
      case 'fence': {
        const lang = token.info.trim().split(/\s+/)[0] || null;
        add({ type: 'code', lang, meta: null, value: token.content });
        break;
      }
      case 'code_block':
        add({ type: 'code', lang: null, meta: null, value: token.content });
        break;
      case 'math_block':
        add({ type: 'math', value: token.content });
        break;
      case 'html_block':
        add({ type: 'html', value: token.content.replace(/\n$/, '') });
        break;
      case 'hr':
        add({ type: 'thematicBreak' });
        break;
      case 'page_break':
        add({ type: 'pageBreak' });
        break;
      default:
        // thead/tbody and the footnote block wrappers carry nothing mdast keeps.
        break;
    }
  }
  return root;
}

function alignOf(token: Token): AlignType {
  const style = String(token.attrGet('style') ?? '');
  const match = /text-align:\s*(left|right|center)/.exec(style);
  return (match?.[1] as AlignType | undefined) ?? null;
}

function footnoteId(token: Token): string {
  return String((token.meta as { id: number }).id);
}

/** GitHub task items: a list item whose first paragraph starts with `[ ]` or `[x]`. */
function readTaskMarker(item: ListItem): void {
  const paragraph = item.children[0];
  if (paragraph?.type !== 'paragraph') return;
  const first = paragraph.children[0];
  if (first?.type !== 'text') return;
  const marker = /^\[([ xX])\](?:[ \t]+|$)/.exec(first.value);
  if (!marker) return;
  item.checked = marker[1] !== ' ';
  first.value = first.value.slice(marker[0].length);
  if (first.value === '') paragraph.children.shift();
}

type Container = { children: PhrasingContent[] };

function inlineNodes(tokens: Token[]): PhrasingContent[] {
  const root: Container = { children: [] };
  const stack: Container[] = [root];
  const top = () => stack[stack.length - 1]!;
  const open = (node: PhrasingContent & Container) => {
    top().children.push(node);
    stack.push(node);
  };
  const add = (node: PhrasingContent) => {
    const children = top().children;
    const last = children[children.length - 1];
    if (node.type === 'text' && last?.type === 'text') last.value += node.value;
    else children.push(node);
  };
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
        add({ type: 'text', value: token.content });
        break;
      case 'softbreak':
        add({ type: 'text', value: '\n' });
        break;
      case 'hardbreak':
        add({ type: 'break' });
        break;
      case 'code_inline':
        add({ type: 'inlineCode', value: token.content });
        break;
      case 'math_inline':
        add({ type: 'inlineMath', value: token.content });
        break;
      case 'html_inline':
        add({ type: 'html', value: token.content });
        break;
      case 'em_open':
        open({ type: 'emphasis', children: [] });
        break;
      case 'strong_open':
        open({ type: 'strong', children: [] });
        break;
      case 's_open':
        open({ type: 'delete', children: [] });
        break;
      case 'link_open':
        open({ type: 'link', url: attribute(token, 'href') ?? '', title: attribute(token, 'title'), children: [] });
        break;
      case 'em_close':
      case 'strong_close':
      case 's_close':
      case 'link_close':
        stack.pop();
        break;
      case 'image':
        add({ type: 'image', url: attribute(token, 'src') ?? '', title: attribute(token, 'title'), alt: plainText(token.children ?? []) });
        break;
      case 'footnote_ref':
        add({ type: 'footnoteReference', identifier: footnoteId(token), label: footnoteId(token) });
        break;
      default:
        break;
    }
  }
  return root.children;
}

function attribute(token: Token, name: string): string | null {
  const value = token.attrGet(name);
  return value === null ? null : String(value);
}

function plainText(tokens: Token[]): string {
  return tokens.map((token) => (token.children ? plainText(token.children) : token.type === 'softbreak' ? ' ' : token.content)).join('');
}
