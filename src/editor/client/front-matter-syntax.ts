/**
 * Front matter as the editor's Markdown grammar sees it: the `---` fenced block at the very start
 * of the document is one FrontMatter node, coloured as metadata. Without it, CommonMark reads its
 * last line before the closing `---` as a setext heading and shows the settings as a title.
 */
import type { MarkdownConfig } from '@lezer/markdown';
import { tags } from '@lezer/highlight';

const FENCE = /^---\s*$/;

export const frontMatterSyntax: MarkdownConfig = {
  defineNodes: [{ name: 'FrontMatter', block: true, style: tags.meta }],
  parseBlock: [
    {
      name: 'FrontMatter',
      before: 'HorizontalRule',
      parse(cx, line) {
        if (cx.lineStart !== 0 || !FENCE.test(line.text)) return false;
        const start = cx.lineStart;
        let end = cx.lineStart + line.text.length;
        while (cx.nextLine()) {
          end = cx.lineStart + line.text.length;
          if (FENCE.test(line.text)) {
            cx.nextLine();
            break;
          }
        }
        cx.addElement(cx.elt('FrontMatter', start, end));
        return true;
      },
    },
  ],
};
