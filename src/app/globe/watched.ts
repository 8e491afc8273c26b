/**
 * A watched value: what the kit's layers take as data when it changes faster than React should
 * render (a covering per animation frame while the radius is dragged). The layer reads it once
 * (get) and redraws on each new value (subscribe), straight into its buffers; nothing re-renders.
 * The kit knows no store: a feature hands a watched slice of its store (shell/store.ts
 * useWatched), a fixed value (fixed), or one derived from either (derived).
 */

export interface Watched<T> {
  /** The current value. */
  get(): T;
  /** Calls `listener` with each new value; returns the unsubscribe function. */
  subscribe(listener: (value: T) => void): () => void;
}

/** fixed returns a value that never changes, as a Watched. */
export function fixed<T>(value: T): Watched<T> {
  return { get: () => value, subscribe: () => () => {} };
}

/**
 * derived returns f of a watched value, computed once per new source value (by identity): every
 * subscriber and get() share the result, so two layers drawing from one derivation compute it once.
 */
export function derived<A, B>(source: Watched<A>, f: (a: A) => B): Watched<B> {
  let last: { a: A; b: B } | null = null;
  const of = (a: A): B => {
    if (!last || last.a !== a) last = { a, b: f(a) };
    return last.b;
  };
  return { get: () => of(source.get()), subscribe: (listener) => source.subscribe((a) => listener(of(a))) };
}
