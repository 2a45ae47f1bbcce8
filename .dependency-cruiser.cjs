/**
 * The walls of the house, checked by `npm run lint` (dependency-cruiser, type imports counted: a
 * type ties a module to another as surely as a value). There are none: any violation fails the
 * lint.
 *
 * The engine's stages import one way: parse → build (document, content) → layout → paint and
 * preview; below every stage sit style, drawing, text, resources, options and errors; above them
 * all, beside index.ts, the renderer (engine/renderer/), which no stage imports.
 * The service's core (admission, render flow, limits, store, usage) imports no door (http, mcp,
 * editor, cli); the store holds no plan policy.
 */
const STAGE_ORDER = [
  ['^engine/parse/', '^engine/(document|content|layout|paint|preview)/'],
  ['^engine/(document|content)/', '^engine/(layout|paint|preview)/'],
  ['^engine/layout/', '^engine/(paint|preview)/'],
  ['^engine/paint/', '^engine/preview/'],
  ['^engine/(style|drawing|text|resources)/', '^engine/(parse|document|content|layout|paint|preview)/'],
];

module.exports = {
  forbidden: [
    {
      name: 'engine-stands-alone',
      comment: 'The engine is a library of its own: it never imports the service or the command line.',
      severity: 'error',
      from: { path: '^engine/' },
      to: { path: '^src/' },
    },
    {
      name: 'pdfkit-only-in-paint',
      comment: 'Only the paint stage writes PDF; every other stage hands it frames.',
      severity: 'error',
      from: { path: '^engine/', pathNot: '^engine/paint/' },
      to: { path: 'node_modules/(@types/)?pdfkit/' },
    },
    ...STAGE_ORDER.map(([from, to], index) => ({
      name: `stage-order-${index + 1}`,
      comment: 'A stage never imports a later one.',
      severity: 'error',
      from: { path: from },
      to: { path: to },
    })),
    {
      name: 'renderer-on-top',
      comment: 'The renderer (worker threads running whole renders) sits at the top of the engine, beside index.ts: no stage reaches up into it.',
      severity: 'error',
      from: { path: '^engine/(parse|document|content|layout|paint|preview|style|drawing|text|resources)/' },
      to: { path: '^engine/renderer/' },
    },
    {
      name: 'core-imports-no-door',
      comment: 'The service core is reached through doors (http, mcp, editor, cli) and never reaches back into one.',
      severity: 'error',
      from: { path: '^src/(admission|render|limits|store|usage|seal|net|workers)/' },
      to: { path: '^src/(http|mcp|editor|cli)/' },
    },
    {
      name: 'store-holds-no-plan-policy',
      comment: 'The store keeps what it is told; what a plan allows is decided above it.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/limits/' },
    },
    {
      name: 'no-cycles',
      comment: 'A cycle ties every module on it to every other.',
      severity: 'error',
      from: { path: '^(engine|src)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|test|bench|scripts)/|^engine/(dist|types)/|^src/editor/client/' },
  },
};
