/** Called with the key, its value and what it should be; throws the caller's own error. */
export type SettingFailure = (key: string, value: unknown, expected: string) => never;

/** The message every bad setting gets: the key, what it takes, and the value it was given. */
export function settingMessage(key: string, value: unknown, expected: string): string {
  return `${key} must be ${expected}, not ${shown(value)}`;
}

function shown(value: unknown): string {
  const text = value instanceof Date ? value.toISOString().slice(0, 10) : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
