import { translateItem } from './frame.js';
import type { BoxItem, VBox } from './vertical.js';

export function shiftBoxItem(item: BoxItem, dy: number, dx = 0): BoxItem {
  if (dy === 0 && dx === 0) return item;
  return item.kind === 'page-ref' ? { ...item, right: item.right + dx, y: item.y + dy } : translateItem(item, dx, dy);
}

/** Stacks boxes into one (lines that must stay together, such as a table row's cells). */
export function stackBoxes(boxes: readonly VBox[]): { height: number; items: BoxItem[] } {
  const items: BoxItem[] = [];
  let y = 0;
  for (const line of boxes) {
    for (const item of line.items) items.push(shiftBoxItem(item, y));
    y += line.height;
  }
  return { height: y, items };
}
