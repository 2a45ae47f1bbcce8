/** Numbers each SVG path command takes per segment. */
const ARITY: Record<string, number> = { M: 2, L: 2, H: 1, V: 1, C: 6, S: 4, Q: 4, T: 2, A: 7, Z: 0 };

/**
 * SVG path data with its smooth curves (`S`, `T`) written out as `C` and `Q` with explicit control
 * points, in absolute coordinates. PDFKit's path reader reflects the wrong control point for a run
 * of `T` segments (it restores the previous one after drawing), which bends MathJax's glyphs, and it
 * keeps stale control points after other commands. Paths without smooth curves pass unchanged;
 * data that cannot be read is left to PDFKit as it was.
 */
export function explicitCurves(d: string): string {
  if (!/[SsTt]/.test(d)) return d;
  const segments = readSegments(d);
  return segments ? writeAbsolute(segments) : d;
}

interface Segment {
  command: string;
  args: number[];
}

function writeAbsolute(segments: Segment[]): string {
  const out: string[] = [];
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  let cubic: [number, number] | null = null;
  let quad: [number, number] | null = null;
  for (const { command, args: a } of segments) {
    const upper = command.toUpperCase();
    const dx = command === upper ? 0 : x;
    const dy = command === upper ? 0 : y;
    const reflected = (point: [number, number] | null): [number, number] => (point ? [2 * x - point[0], 2 * y - point[1]] : [x, y]);
    let nextCubic: [number, number] | null = null;
    let nextQuad: [number, number] | null = null;
    switch (upper) {
      case 'M':
        x = startX = a[0]! + dx;
        y = startY = a[1]! + dy;
        out.push(`M${x} ${y}`);
        break;
      case 'L':
        x = a[0]! + dx;
        y = a[1]! + dy;
        out.push(`L${x} ${y}`);
        break;
      case 'H':
        x = a[0]! + dx;
        out.push(`L${x} ${y}`);
        break;
      case 'V':
        y = a[0]! + dy;
        out.push(`L${x} ${y}`);
        break;
      case 'C':
      case 'S': {
        const first = upper === 'C' ? [a[0]! + dx, a[1]! + dy] : reflected(cubic);
        const rest = upper === 'C' ? a.slice(2) : a;
        nextCubic = [rest[0]! + dx, rest[1]! + dy];
        x = rest[2]! + dx;
        y = rest[3]! + dy;
        out.push(`C${first[0]} ${first[1]} ${nextCubic[0]} ${nextCubic[1]} ${x} ${y}`);
        break;
      }
      case 'Q':
      case 'T': {
        nextQuad = upper === 'Q' ? [a[0]! + dx, a[1]! + dy] : reflected(quad);
        const end = upper === 'Q' ? a.slice(2) : a;
        x = end[0]! + dx;
        y = end[1]! + dy;
        out.push(`Q${nextQuad[0]} ${nextQuad[1]} ${x} ${y}`);
        break;
      }
      case 'A':
        x = a[5]! + dx;
        y = a[6]! + dy;
        out.push(`A${a[0]} ${a[1]} ${a[2]} ${a[3]} ${a[4]} ${x} ${y}`);
        break;
      default:
        x = startX;
        y = startY;
        out.push('Z');
    }
    cubic = nextCubic;
    quad = nextQuad;
  }
  return out.join('');
}

/** Path data as one segment per command use (repeated arguments split, `M`'s extra pairs as `L`). */
function readSegments(d: string): Segment[] | null {
  const segments: Segment[] = [];
  const space = /[\s,]*/y;
  const number = /[\s,]*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/y;
  const flag = /[\s,]*([01])/y;
  const read = (pattern: RegExp, at: number): RegExpExecArray | null => {
    pattern.lastIndex = at;
    return pattern.exec(d);
  };
  let at = read(space, 0)![0].length;
  while (at < d.length) {
    const command = d[at]!;
    const arity = ARITY[command.toUpperCase()];
    if (arity === undefined) return null;
    at++;
    let repeat = command;
    do {
      const args: number[] = [];
      for (let i = 0; i < arity; i++) {
        const match = read(repeat.toUpperCase() === 'A' && (i === 3 || i === 4) ? flag : number, at);
        if (!match) return null;
        args.push(Number(match[1]));
        at += match[0].length;
      }
      segments.push({ command: repeat, args });
      if (repeat === 'M') repeat = 'L';
      else if (repeat === 'm') repeat = 'l';
    } while (arity > 0 && read(number, at));
    at += read(space, at)![0].length;
  }
  return segments;
}
