/** Share of the actor's box the person icon keeps; its name takes the rest. */
const ICON_SHARE = 0.6;

/**
 * beautiful-mermaid sets a sequence actor's name under its person icon, outside the actor's box,
 * where the first message runs through it. Here the icon shrinks to the top of the box and the
 * name moves into the space below it, so nothing is drawn across the name.
 */
export function actorsInTheirBoxes(svg: string): string {
  return svg.replace(
    /(<g class="actor"[^>]*data-type="actor">\s*)<g transform="translate\(([-\d.]+),([-\d.]+)\) scale\(([\d.]+)\)">([\s\S]*?)<\/g>(\s*)(<text\b[\s\S]*?<\/text>)/g,
    (_, opening: string, tx: string, ty: string, s: string, icon: string, space: string, label: string) => {
      // Undo beautiful-mermaid's placement: a 24-unit icon at 90 % of the box height, centred in it.
      const scale = Number(s);
      const height = (24 * scale) / 0.9;
      const top = Number(ty) - (height - 24 * scale) / 2;
      const centre = Number(tx) + 12 * scale;
      const newScale = (height * ICON_SHARE) / 24;
      const strokes = icon.replace(/stroke-width="([\d.]+)"/g, (__, width: string) => `stroke-width="${(Number(width) * scale) / newScale}"`);
      const labelY = Number(/\by="([-\d.]+)"/.exec(label)?.[1] ?? 0);
      const shift = top + height * (ICON_SHARE + (1 - ICON_SHARE) / 2) + 1 - labelY;
      const moved = label.replace(/\by="([-\d.]+)"/g, (__, y: string) => `y="${Number(y) + shift}"`);
      return `${opening}<g transform="translate(${centre - 12 * newScale},${top + 1}) scale(${newScale})">${strokes}</g>${space}${moved}`;
    },
  );
}
