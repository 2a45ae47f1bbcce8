import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { render, type Features } from '#engine/index.js';
import { renderMermaid } from '#engine/content/mermaid/index.js';
import { contrast, diagramColors, mix } from '#engine/content/mermaid/colors.js';
import { applyMatrix } from '#engine/drawing/matrix.js';
import type { Drawing, DrawingItem } from '#engine/drawing/drawing.js';
import { THEMES } from '#engine/options.js';
import { pdftotext } from '../../support/pdf-tools.js';

type TextItem = Extract<DrawingItem, { kind: 'text' }>;
type PathItem = Extract<DrawingItem, { kind: 'path' }>;

async function drawingOf(source: string, theme: Features['theme'] = 'light'): Promise<Drawing> {
  const result = await renderMermaid(source, { theme, signal: undefined });
  assert.ok(result.ok, result.ok ? '' : result.reason);
  return result.drawing;
}

const texts = (drawing: Drawing) => drawing.items.filter((item): item is TextItem => item.kind === 'text').map((item) => item.text);

/** The box a path's points span, in drawing units. */
function pathBox(item: PathItem): [number, number, number, number] {
  const numbers = (item.d.match(/-?\d*\.?\d+(?:e-?\d+)?/g) ?? []).map(Number);
  const points = [];
  for (let index = 0; index + 1 < numbers.length; index += 2) points.push(applyMatrix(item.transform, numbers[index]!, numbers[index + 1]!));
  const xs = points.map((point) => point[0]);
  const ys = points.map((point) => point[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

// Mermaid's cardinalities, as its documentation lists them: symbols for each side and word aliases.
const LEFT = ['|o', '||', '}o', '}|'];
const RIGHT = ['o|', '||', 'o{', '|{'];
const WORDS = ['one or zero', 'zero or one', 'one or more', 'one or many', 'many(1)', '1+', 'zero or more', 'zero or many', 'many(0)', '0+', 'only one', '1'];

describe('mermaid ER diagrams', () => {
  it('should draw every entity and relationship, whatever cardinality comes first', async () => {
    const source = 'erDiagram\n    CUSTOMER ||--o{ ORDER : places\n    ORDER ||--|{ LINE-ITEM : contains\n    CRATE }o--|| SUPPLIER : ships\n';
    const text = await pdftotext((await render(`\`\`\`mermaid\n${source}\`\`\`\n`)).pdf);
    for (const word of ['CUSTOMER', 'ORDER', 'LINE-ITEM', 'CRATE', 'SUPPLIER', 'places', 'contains', 'ships']) assert.match(text, new RegExp(word), word);
  });

  it('should read every symbol cardinality on both sides, solid and dashed, spaced or glued', async () => {
    const relationships = LEFT.flatMap((left, l) =>
      RIGHT.flatMap((right, r) =>
        ['--', '..'].map((line, k) => ({
          statement: `L${l}R${r}K${k} ${left}${line}${right} T${l}${r}${k} : rel${l}${r}${k}`,
          names: [`L${l}R${r}K${k}`, `T${l}${r}${k}`, `rel${l}${r}${k}`],
        })),
      ),
    );
    const drawn = texts(await drawingOf(`erDiagram\n${relationships.map((relation) => `  ${relation.statement}`).join('\n')}`));
    for (const { statement, names } of relationships) for (const name of names) assert.ok(drawn.includes(name), `${name} of ${statement}`);
    const glued = texts(await drawingOf('erDiagram\n  CUSTOMER}o..|{ORDER : places'));
    for (const name of ['CUSTOMER', 'ORDER', 'places']) assert.ok(glued.includes(name), name);
  });

  it('should read the word aliases and `to` / `optionally to`', async () => {
    const relationships = WORDS.map(
      (word, index) => `  E${index} ${word} ${index % 2 ? 'to' : 'optionally to'} ${WORDS[(index + 5) % WORDS.length]} F${index} : says${index}`,
    );
    const drawn = texts(await drawingOf(`erDiagram\n${relationships.join('\n')}`));
    WORDS.forEach((_, index) => {
      for (const name of [`E${index}`, `F${index}`, `says${index}`]) assert.ok(drawn.includes(name), `${name} of ${relationships[index]}`);
    });
  });

  it('should show an entity by its alias, and names with spaces whole', async () => {
    const drawn = texts(await drawingOf('erDiagram\n  p[Person] ||--o{ a["Customer Account"] : has\n  "This ❤ Unicode"\n  "LINE ITEM" {\n    string sku\n  }'));
    for (const name of ['Person', 'Customer Account', 'has', 'This ❤ Unicode', 'LINE ITEM', 'sku'])
      assert.ok(drawn.includes(name), `${name} in ${drawn.join(' | ')}`);
    assert.ok(!drawn.some((text) => /p\[|\uE000/.test(text)), drawn.join(' | '));
  });

  it('should set "(no attributes)" at 4.5:1 or more against its box, in every theme', async () => {
    for (const theme of THEMES) {
      const colors = diagramColors(theme);
      const drawing = await drawingOf('erDiagram\n  CUSTOMER ||--o{ ORDER : places', theme);
      const notes = drawing.items.filter((item): item is TextItem => item.kind === 'text' && item.text === '(no attributes)');
      assert.equal(notes.length, 2, theme);
      for (const note of notes) {
        const [x, y] = applyMatrix(note.transform, note.x, note.y);
        const index = drawing.items.indexOf(note);
        // The topmost fill under the text is what it is read against.
        const under = drawing.items
          .slice(0, index)
          .filter((item): item is PathItem => item.kind === 'path' && item.fill !== null && item.fillOpacity > 0)
          .filter((item) => {
            const [x1, y1, x2, y2] = pathBox(item);
            return x1 <= x && x <= x2 && y1 <= y && y <= y2;
          })
          .at(-1);
        const background = under ? mix(under.fill!, colors.background, under.fillOpacity) : colors.background;
        const ratio = contrast(note.color, background);
        assert.ok(ratio >= 4.5, `${theme}: ${note.color} on ${background} is ${ratio.toFixed(2)}:1`);
      }
    }
  });
});
