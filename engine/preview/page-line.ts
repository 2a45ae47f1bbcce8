/** A line of text on a page: where its baseline is (points from the top) and what it says. */
export interface PageLine {
  y: number;
  text: string;
}
