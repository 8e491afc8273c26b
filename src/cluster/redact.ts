/**
 * No credentials in any message or answer: redactUrl, the connection's (client.ts) and the live
 * API's wire contract's (src/server/wire/common.ts re-exports it for the explorer). Pure: no
 * Node imports, no DOM.
 */

/** redactUrl removes user:password@ from every URL in a text (a URL alone, or a message naming one). */
export function redactUrl(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/@\s"']*@/gi, '$1');
}
