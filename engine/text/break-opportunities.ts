import LineBreaker from 'linebreak';

export interface BreakOpportunity {
  /** The line may end before this UTF-16 index. */
  position: number;
  required: boolean;
  /** Extra cost of breaking here (breaks inside URLs and long tokens cost more than spaces). */
  penalty: number;
}

/** Breaking inside a long token (a URL, a path) is allowed but costs this much. */
const TOKEN_BREAK_PENALTY = 50;
const LONG_TOKEN = 20;
const TOKEN_BREAK_AFTER = /[/.?&=#_\-:,;@]/;

/** UAX #14 break opportunities, plus breaks after URL punctuation inside long tokens. */
export function breakOpportunities(text: string): BreakOpportunity[] {
  const out: BreakOpportunity[] = [];
  const breaker = new LineBreaker(text);
  let last = 0;
  for (let next = breaker.nextBreak(); next; next = breaker.nextBreak()) {
    // A token may hold spaces UAX #14 allows no break at ("with .allowExcessArguments()"): each
    // part between them is measured and broken alone, so no break falls after a part's first
    // characters (the "." of a method name).
    const token = text.slice(last, next.position).trimEnd();
    if (token.length > LONG_TOKEN) {
      for (const part of token.matchAll(/[^ ]+/g)) if (part[0].length > LONG_TOKEN) addTokenBreaks(part[0], last + part.index, out);
    }
    out.push({ position: next.position, required: next.required, penalty: 0 });
    last = next.position;
  }
  return out;
}

function addTokenBreaks(token: string, offset: number, out: BreakOpportunity[]): void {
  for (let i = 3; i < token.length - 3; i++) {
    if (TOKEN_BREAK_AFTER.test(token[i]!) && !TOKEN_BREAK_AFTER.test(token[i + 1]!)) {
      out.push({ position: offset + i + 1, required: false, penalty: TOKEN_BREAK_PENALTY });
    }
  }
}
