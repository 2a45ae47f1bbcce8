// Math nodes as Quire's parser produces them (the shapes mdast-util-math defines).
import type { Literal } from 'mdast';

declare module 'mdast' {
  interface Math extends Literal {
    type: 'math';
  }
  interface InlineMath extends Literal {
    type: 'inlineMath';
  }
  interface RootContentMap {
    math: Math;
    inlineMath: InlineMath;
  }
  interface BlockContentMap {
    math: Math;
  }
  interface PhrasingContentMap {
    inlineMath: InlineMath;
  }
}
