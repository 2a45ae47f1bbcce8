/**
 * The kinds of GitHub alert (`> [!NOTE]` and the rest). Held here, below every stage, because the
 * palette gives each kind a colour of its own and parse, build and layout all name them.
 */
export const ALERT_KINDS = ['note', 'tip', 'important', 'warning', 'caution'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
