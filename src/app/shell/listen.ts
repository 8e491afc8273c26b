/**
 * listen adds a set of event listeners to one element (or the window) and returns what removes them all: a
 * pointer-driven view (the globe's controls, the review ribbon, the shards strip) adds six to
 * nine and must remove exactly those when its effect ends.
 *
 * `handlers`: event type → listener, typed by HTMLElement's event map. `options`: per event
 * type, the options both calls get (e.g. `{ wheel: { passive: false } }`, so a wheel handler can
 * preventDefault).
 */
export type Handlers = { [K in keyof HTMLElementEventMap]?: (e: HTMLElementEventMap[K]) => void };

export function listen(el: EventTarget, handlers: Handlers, options: { [K in keyof HTMLElementEventMap]?: AddEventListenerOptions } = {}): () => void {
  const pairs = Object.entries(handlers) as [keyof HTMLElementEventMap, EventListener][];
  for (const [type, fn] of pairs) el.addEventListener(type, fn, options[type]);
  return () => {
    for (const [type, fn] of pairs) el.removeEventListener(type, fn, options[type]);
  };
}
