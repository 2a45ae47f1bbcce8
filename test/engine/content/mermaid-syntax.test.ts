import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readSource, type MermaidSource } from '#engine/content/mermaid/source.js';
import { parseGantt } from '#engine/content/mermaid/gantt-parse.js';
import { dateReader, formatTime } from '#engine/content/mermaid/gantt-time.js';
import { parseGitGraph } from '#engine/content/mermaid/git-graph-parse.js';
import { parseMindmap, type MindmapNode } from '#engine/content/mermaid/mindmap-parse.js';
import { parsePie } from '#engine/content/mermaid/pie.js';
import { parseQuadrantChart } from '#engine/content/mermaid/quadrant-parse.js';
import { parseTimeline } from '#engine/content/mermaid/timeline.js';
import { parseJourney } from '#engine/content/mermaid/journey.js';
import { expandMarkers } from '#engine/content/mermaid/markers.js';
import { uprightAxisTitles } from '#engine/content/mermaid/axis-titles.js';
import { MermaidSyntaxError } from '#engine/content/mermaid/syntax-error.js';
import { harfBuzzReady } from '#engine/text/harfbuzz.js';

function source(text: string): MermaidSource {
  const read = readSource(text);
  assert.ok(read);
  return read;
}

const day = (text: string) => Date.parse(`${text}T00:00:00Z`);

describe('mermaid source', () => {
  it('should split off front matter, directives, comments and accessibility statements', () => {
    const read = source(
      '---\ntitle: "Pets"\nconfig:\n  theme: dark\n---\n%%{init: {"theme": "forest"}}%%\npie showData\n  %% a comment\n  accTitle: Pets\n  accDescr {\n    Two lines\n    of description\n  }\n  "Dogs" : 3\n',
    );
    assert.equal(read.keyword, 'pie');
    assert.equal(read.headerRest, 'showData');
    assert.equal(read.title, 'Pets');
    assert.deepEqual(read.lines, ['"Dogs" : 3']);
    assert.deepEqual(read.indented, ['  "Dogs" : 3']);
  });

  it('should find no diagram in blank or comment-only source', () => {
    assert.equal(readSource('\n  \n%% nothing\n'), null);
  });
});

describe('gantt syntax', () => {
  it('should resolve starts after other tasks, ends until them, and skip excluded weekends', () => {
    const gantt = parseGantt(
      source(
        [
          'gantt',
          '  dateFormat YYYY-MM-DD',
          '  excludes weekends',
          '  section Build',
          '  Design   :done, design, 2024-01-05, 3d',
          '  Code     :code, after design, 2d',
          '  Review   :until ship',
          '  section Ship',
          '  Ship     :milestone, ship, 2024-01-20, 0d',
        ].join('\n'),
      ),
    );
    assert.deepEqual(gantt.sections, ['Build', 'Ship']);
    const [design, code, review, ship] = gantt.tasks;
    assert.deepEqual([design!.start, design!.end], [day('2024-01-05'), day('2024-01-10')], 'Friday, Monday and Tuesday');
    assert.deepEqual([code!.start, code!.end], [day('2024-01-10'), day('2024-01-12')]);
    assert.deepEqual([review!.start, review!.end], [day('2024-01-12'), day('2024-01-20')]);
    assert.ok(design!.tags.has('done') && ship!.tags.has('milestone'));
    assert.equal(ship!.section, 1);
  });

  it('should read dates in the chart dateFormat and write axis times in its axisFormat', () => {
    assert.equal(dateReader('DD/MM/YYYY HH:mm')('25/12/2023 18:30'), Date.UTC(2023, 11, 25, 18, 30));
    assert.equal(dateReader('YYYY-MM-DD')('2023-13-01'), null);
    assert.equal(formatTime(Date.UTC(2024, 0, 7, 9, 5), '%a %e %b %Y, %H:%M'), 'Sun 7 Jan 2024, 09:05');
  });

  it('should refuse circular dependencies, unknown ids and dates it cannot read', () => {
    assert.throws(() => parseGantt(source('gantt\n  A :a, after b, 1d\n  B :b, after a, 1d')), /in a circle/);
    assert.throws(() => parseGantt(source('gantt\n  A :a, after nobody, 1d')), /no gantt task has the id "nobody"/);
    assert.throws(() => parseGantt(source('gantt\n  A :a, 01.02.2024, 1d')), /not a date/);
    assert.throws(() => parseGantt(source('gantt\n  A task without dates')), MermaidSyntaxError);
  });
});

describe('gitGraph syntax', () => {
  it('should record branches, merges and cherry-picks with their parents', () => {
    const graph = parseGitGraph(
      source(
        'gitGraph TB:\n  commit id: "a"\n  branch dev order: 2\n  commit id: "b" tag: "v1" type: HIGHLIGHT\n  checkout main\n  commit id: "c"\n  merge dev\n  switch dev\n  cherry-pick id: "c"',
      ),
    );
    assert.equal(graph.direction, 'TB');
    assert.deepEqual(
      graph.branches.map((branch) => [branch.name, branch.order]),
      [
        ['main', null],
        ['dev', 2],
      ],
    );
    const [a, b, c, merge, pick] = graph.commits;
    assert.deepEqual(b!.parents, [a]);
    assert.equal(b!.tag, 'v1');
    assert.equal(b!.type, 'HIGHLIGHT');
    assert.deepEqual(merge!.parents, [c, b]);
    assert.equal(merge!.kind, 'merge');
    assert.equal(pick!.kind, 'cherry-pick');
    assert.equal(pick!.picked, 'c');
    assert.equal(pick!.branch, 1);
  });

  it('should refuse what git would refuse', () => {
    assert.throws(() => parseGitGraph(source('gitGraph\n  commit\n  checkout nowhere')), /no branch "nowhere"/);
    assert.throws(() => parseGitGraph(source('gitGraph\n  commit\n  merge main')), /into itself/);
    assert.throws(() => parseGitGraph(source('gitGraph\n  commit\n  branch dev\n  checkout main\n  merge dev')), /nothing to merge/);
    assert.throws(() => parseGitGraph(source('gitGraph\n  commit id: "x"\n  commit id: "x"')), /used twice/);
    assert.throws(() => parseGitGraph(source('gitGraph\n  commit\n  branch main')), /already exists/);
    assert.throws(() => parseGitGraph(source('gitGraph\n  rebase main')), /not a gitGraph command/);
  });
});

describe('mindmap syntax', () => {
  it('should nest nodes by indentation and read their shapes', () => {
    const root = parseMindmap(
      source('mindmap\n  root((Centre))\n    a[Square]\n      deep\n    b)Cloud(\n      ::icon(fa fa-book)\n    c{{Hex}}:::urgent\n    "`**Bold** idea`"'),
    );
    const outline = (node: MindmapNode): unknown => [node.text, node.shape, ...node.children.map(outline)];
    assert.deepEqual(outline(root), [
      'Centre',
      'circle',
      ['Square', 'square', ['deep', 'default']],
      ['Cloud', 'cloud'],
      ['Hex', 'hexagon'],
      ['Bold idea', 'default'],
    ]);
  });

  it('should refuse a second root', () => {
    assert.throws(() => parseMindmap(source('mindmap\n  one\n  two')), /one root/);
  });
});

describe('pie, timeline, journey and quadrantChart syntax', () => {
  it('pie: should read showData, a title on the header line and slice values', () => {
    const pie = parsePie(source('pie showData title Pets\n  "Dogs" : 386\n  "Cats" : 85.5'));
    assert.equal(pie.showData, true);
    assert.equal(pie.title, 'Pets');
    assert.deepEqual(pie.slices, [
      { label: 'Dogs', value: 386 },
      { label: 'Cats', value: 85.5 },
    ]);
    assert.throws(() => parsePie(source('pie\n  "Dogs" : -1')), /zero or more/);
    assert.throws(() => parsePie(source('pie\n  Dogs : 1')), /not a pie chart statement/);
  });

  it('timeline: should add events written on following lines to the period before', () => {
    const timeline = parseTimeline(source('timeline\n  title Social media\n  section Early\n  2004 : Facebook : Flickr\n       : Gmail\n  2005 : YouTube'));
    assert.equal(timeline.title, 'Social media');
    assert.deepEqual(
      timeline.periods.map((period) => [period.label, period.section, period.events]),
      [
        ['2004', 0, ['Facebook', 'Flickr', 'Gmail']],
        ['2005', 0, ['YouTube']],
      ],
    );
    assert.throws(() => parseTimeline(source('timeline\n  : orphan event')), /time period before/);
  });

  it('journey: should collect actors in order and keep scores between 1 and 5', () => {
    const journey = parseJourney(source('journey\n  section Morning\n  Make tea: 5: Me\n  Commute: 0: Me, Cat\n  Work: 9'));
    assert.deepEqual(journey.actors, ['Me', 'Cat']);
    assert.deepEqual(
      journey.tasks.map((task) => [task.name, task.score, task.actors.length]),
      [
        ['Make tea', 5, 1],
        ['Commute', 1, 2],
        ['Work', 5, 0],
      ],
    );
  });

  it("quadrantChart: should read axes, quadrants and points, with class styles under a point's own", () => {
    const chart = parseQuadrantChart(
      source(
        'quadrantChart\n  x-axis Low --> High\n  y-axis Bottom\n  quadrant-2 Promote\n  A: [0.3, 0.6]\n  B:::hot: [0.9, 0] radius: 9\n  classDef hot color: #ff3300, radius: 4',
      ),
    );
    assert.deepEqual(chart.xAxis, ['Low', 'High']);
    assert.deepEqual(chart.yAxis, ['Bottom', null]);
    assert.equal(chart.quadrants[1], 'Promote');
    assert.deepEqual(chart.points[1], { name: 'B', x: 0.9, y: 0, radius: 9, color: [255, 51, 0] });
    assert.throws(() => parseQuadrantChart(source('quadrantChart\n  A: [1.5, 0.2]')), /between 0 and 1/);
    assert.throws(() => parseQuadrantChart(source('quadrantChart\n  A:::missing: [0.5, 0.2]')), /no classDef "missing"/);
  });
});

describe('beautiful-mermaid SVG made drawable', () => {
  // Axis titles are measured with HarfBuzz, which starts as the engine loads (a render waits for it).
  before(() => harfBuzzReady);

  it('should place a marker at the end of its line, turned along it and scaled by the stroke width', () => {
    const svg =
      '<svg><defs><marker id="arrow" refX="8" refY="2.5" orient="auto"><polygon points="0 0, 8 2.5, 0 5"/></marker></defs>\n<line x1="0" y1="0" x2="0" y2="50" stroke-width="2" marker-end="url(#arrow)" />\n</svg>';
    assert.match(
      expandMarkers(svg),
      /<line [^>]*\/><g transform="translate\(0 50\) rotate\(90\) scale\(2\) translate\(-8 -2.5\)"><polygon points="0 0, 8 2.5, 0 5"\/><\/g>/,
    );
  });

  it('should set a turned axis title upright, wrapped into the margin left of the axis labels', () => {
    const svg =
      '<svg><text x="110" y="92" text-anchor="end" font-size="14">500</text>\n<text x="26" y="262" text-anchor="middle" transform="rotate(-90,26,262)" font-size="15" class="xychart-axis-title">Revenue in thousands of dollars</text></svg>';
    const upright = uprightAxisTitles(svg);
    assert.doesNotMatch(upright, /rotate/);
    const lines = [...upright.matchAll(/<tspan x="([\d.]+)" y="([\d.]+)">([^<]*)<\/tspan>/g)];
    assert.ok(lines.length >= 2, 'the title wraps');
    assert.deepEqual(lines.map((line) => line[3]).join(' '), 'Revenue in thousands of dollars');
    assert.ok(
      lines.every((line) => Number(line[1]) < 110 - 30),
      'left of the axis labels',
    );
  });
});

describe('flowchart links written without spaces', () => {
  it('should read A-->B, A-->|label|B and hyphenated names as Mermaid does', async () => {
    const { render } = await import('#engine/index.js');
    const { pdftotext } = await import('../../support/pdf-tools.js');
    for (const [statement, words] of [
      ['A-->B', ['A', 'B']],
      ['A-->|yes|B', ['A', 'yes', 'B']],
      ['start-up==>finish', ['start-up', 'finish']],
    ] as const) {
      const text = await pdftotext((await render('```mermaid\ngraph LR\n' + statement + '\n```')).pdf);
      for (const word of words) assert.match(text, new RegExp(`(^|\\s)${word}(\\s|$)`, 'm'), `${statement}: ${word}`);
      assert.doesNotMatch(text, /--/, statement);
    }
  });

  it('should read statements after the header on its own line (graph TD; A-->B)', async () => {
    const { render } = await import('#engine/index.js');
    const { pdftotext } = await import('../../support/pdf-tools.js');
    const text = await pdftotext((await render('```mermaid\ngraph TD; A-->B; B-->C\n```')).pdf);
    for (const word of ['A', 'B', 'C']) assert.match(text, new RegExp(`(^|\\s)${word}(\\s|$)`, 'm'), word);
    assert.doesNotMatch(text, /--/);
  });
});
