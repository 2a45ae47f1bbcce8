import type { MmlNode } from 'mathjax-full/js/core/MmlTree/MmlNode.js';
import { RendererBoundError } from '../../errors.js';
import { MAX_BUFFER, MAX_MACROS, MAX_NODES, mayDefine } from './bounds.js';

type ParseOptions = import('mathjax-full/js/input/tex/ParseOptions.js').default;

/** TeX → SVG text by MathJax 3: TeX input, SVG output with glyphs as paths, the lite adaptor (no DOM). */
export interface TexTypesetter {
  /** The formula's `<svg>`; throws MathJax's TeX error for invalid TeX, or a RendererBoundError. */
  toSvg(tex: string, display: boolean): string;
}

/**
 * Packages left out: `require` and `autoload` would load code at run time, `html` makes links and
 * classes a PDF cannot use, `noerrors`/`noundefined` would hide TeX errors inside the formula, and
 * `bussproofs` needs a second layout pass in a browser.
 */
const EXCLUDED_PACKAGES = new Set(['require', 'autoload', 'html', 'noerrors', 'noundefined', 'bussproofs']);

/** The CSS pixel sizes MathJax assumes; only relative sizes matter, since Quire reads the viewBox. */
const EM_PX = 16;
const EX_PX = 8;
/** Width available to `100%` constructs, about the measure. */
const CONTAINER_PX = 40 * EM_PX;

let loading: Promise<TexTypesetter> | null = null;

/** MathJax, imported and set up on first use (about 0.3–0.4 s), then kept for the process. */
export function loadTypesetter(): Promise<TexTypesetter> {
  loading ??= createTypesetter().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

async function createTypesetter(): Promise<TexTypesetter> {
  const [{ mathjax }, { TeX }, { SVG }, { liteAdaptor }, { RegisterHTMLHandler }, { AllPackages }] = await Promise.all([
    import('mathjax-full/js/mathjax.js'),
    import('mathjax-full/js/input/tex.js'),
    import('mathjax-full/js/output/svg.js'),
    import('mathjax-full/js/adaptors/liteAdaptor.js'),
    import('mathjax-full/js/handlers/html.js'),
    import('mathjax-full/js/input/tex/AllPackages.js'),
  ]);
  const adaptor = liteAdaptor();
  RegisterHTMLHandler(adaptor);
  const packages = AllPackages.filter((name) => !EXCLUDED_PACKAGES.has(name));
  let nodes = 0;

  const freshDocument = () => {
    const tex = new TeX({
      packages,
      maxMacros: MAX_MACROS,
      maxBuffer: MAX_BUFFER,
      formatError: (_jax: unknown, error: Error) => {
        throw error;
      },
    });
    tex.postFilters.add(setLabelsInline, -1);
    const document = mathjax.document('', { InputJax: tex, OutputJax: new SVG({ fontCache: 'none' }) });
    const factory = document.mmlFactory;
    const create = factory.create.bind(factory);
    factory.create = (...args) => {
      if (++nodes > MAX_NODES) throw new RendererBoundError('ElementLimit', `a formula needs more than ${MAX_NODES} MathML nodes`);
      return create(...args);
    };
    return { tex, document };
  };

  let current = freshDocument();
  return {
    toSvg(tex, display) {
      nodes = 0;
      let clean = !mayDefine(tex);
      try {
        const container = current.document.convert(tex, { display, em: EM_PX, ex: EX_PX, containerWidth: CONTAINER_PX });
        return adaptor.innerHTML(container);
      } catch (error) {
        clean = false;
        if (error instanceof RangeError) throw new RendererBoundError('DepthLimit', 'a formula nests too deeply to typeset');
        throw error;
      } finally {
        // Definitions, labels and half-finished parses never reach the next formula.
        if (clean) current.tex.reset();
        else current = freshDocument();
      }
    },
  };
}

/**
 * MathJax sets a top-level equation with `\tag` as a table as wide as the browser's line
 * (width 100%, positioned by nested viewports). Wrapped in an mpadded, it is set at its own width
 * with the tag after it, which needs no browser to lay out. Top level means under the math node
 * through rows and atoms, as MathJax looks for a table's container.
 */
function setLabelsInline({ data }: { data: ParseOptions }): void {
  const visit = (parent: MmlNode) => {
    for (const child of [...parent.childNodes] as MmlNode[]) {
      if (child.isKind('mtable') && child.childNodes.some((row) => (row as MmlNode).isKind('mlabeledtr'))) {
        parent.replaceChild(data.nodeFactory.create('node', 'mpadded', [child], {}), child);
      } else if (child.isInferred || child.notParent || child.isKind('mrow') || child.isKind('TeXAtom')) {
        visit(child);
      }
    }
  };
  visit(data.root);
}
