/**
 * The signed-in API key, kept in the browser's localStorage and sent as the bearer token. The
 * trade-off (docs/editor.md): it survives reloads and needs no cookie or session on the
 * service, so there is no CSRF surface; but any script running on this origin could read it —
 * which is why the page allows only its own bundled scripts (strict CSP) — and it stays on the
 * device until the person signs out.
 */
const KEY = 'quire.apiKey';

export function storedKey(): string | null {
  return localStorage.getItem(KEY);
}

export function keepKey(key: string): void {
  localStorage.setItem(KEY, key);
}

export function forgetKey(): void {
  localStorage.removeItem(KEY);
}
