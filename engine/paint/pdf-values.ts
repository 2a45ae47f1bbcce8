/** A number as PDF content streams want it: short, fixed precision, no exponent. */
export function num(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  const rounded = Math.round(value * 1000) / 1000;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

/** A text string as UTF-16BE hex with a byte order mark: safe for any Unicode in any position. */
export function hexTextString(text: string): string {
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, '0');
  return `<${hex}>`;
}

/** Colours as operands, by colour: a document draws in a few colours thousands of times. */
const rgbOperands = new WeakMap<readonly [number, number, number], string>();

export function rgb(color: readonly [number, number, number]): string {
  let operands = rgbOperands.get(color);
  if (operands === undefined) {
    operands = `${num(color[0] / 255)} ${num(color[1] / 255)} ${num(color[2] / 255)}`;
    rgbOperands.set(color, operands);
  }
  return operands;
}
