/**
 * A laid-out block's structure ids, read and renumbered: a block laid out for an earlier
 * structure tree is reused in a new one by copying its nodes with every tag mapped, keeping the
 * identities pagination relies on (boxes of one container share it; a table's header box is the
 * box it names).
 */
import type { StructId } from '../structure.js';
import type { BlockNodes, BoxItem, Container, VBox, VNode } from '../vertical.js';

/** Every tag the block's items carry. */
export function tagsOf(laid: BlockNodes): Set<StructId> {
  const tags = new Set<StructId>();
  const visit = (box: VBox) => {
    for (const item of box.items) if ('tag' in item && item.tag !== null) tags.add(item.tag);
    for (const owner of box.containers) if (owner.decoration.kind === 'table' && owner.decoration.header) visitOnce(owner.decoration.header);
  };
  const seen = new Set<VBox>();
  const visitOnce = (box: VBox) => {
    if (seen.has(box)) return;
    seen.add(box);
    visit(box);
  };
  forEachBox(laid.nodes, visitOnce);
  return tags;
}

/** The block with every tag mapped, sharing what holds no tag. */
export function retagged(laid: BlockNodes, map: (tag: StructId) => StructId): BlockNodes {
  const boxes = new Map<VBox, VBox>();
  const containers = new Map<Container, Container>();
  const container = (owner: Container): Container => {
    if (owner.decoration.kind !== 'table' || owner.decoration.header === null) return owner;
    let copy = containers.get(owner);
    if (!copy) {
      // Registered before its header is copied: the header's own containers name it.
      const decoration = { ...owner.decoration };
      copy = { decoration };
      containers.set(owner, copy);
      decoration.header = box(owner.decoration.header);
    }
    return copy;
  };
  const box = (original: VBox): VBox => {
    let copy = boxes.get(original);
    if (!copy) {
      copy = { ...original, items: [] };
      boxes.set(original, copy);
      copy.items = original.items.map((item) => retaggedItem(item, map));
      copy.containers = original.containers.map(container);
    }
    return copy;
  };
  const nodes = (list: readonly VNode[]): VNode[] =>
    list.map((node) => {
      switch (node.kind) {
        case 'box':
          return box(node);
        case 'float':
          return { ...node, boxes: node.boxes.map(box) };
        case 'landscape':
          return { ...node, nodes: nodes(node.nodes) };
        default:
          return node;
      }
    });
  return { ...laid, nodes: nodes(laid.nodes) };
}

function retaggedItem(item: BoxItem, map: (tag: StructId) => StructId): BoxItem {
  return 'tag' in item && item.tag !== null ? { ...item, tag: map(item.tag) } : item;
}

function forEachBox(list: readonly VNode[], visit: (box: VBox) => void): void {
  for (const node of list) {
    if (node.kind === 'box') visit(node);
    else if (node.kind === 'float') node.boxes.forEach(visit);
    else if (node.kind === 'landscape') forEachBox(node.nodes, visit);
  }
}
