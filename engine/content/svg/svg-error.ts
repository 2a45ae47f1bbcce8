/** The SVG cannot be read as a picture (no root element, no size); not a renderer bound. */
export class SvgError extends Error {}
