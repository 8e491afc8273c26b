/**
 * afterFirstFrame resolves once the scene has drawn its first frame (FrameDriver sets
 * `document.body.dataset.ready`), at once if it already has, or where there is no document
 * (unit tests). Work the first frame does not need (the geometry worker's data, the
 * worked-searches table, the review's ribbon) starts from here, so it neither delays the
 * first frame nor counts in its JavaScript (bench/globe.perf.ts).
 */
let drawn: Promise<void> | null = null;

export function afterFirstFrame(): Promise<void> {
  if (typeof document === 'undefined') return Promise.resolve();
  drawn ??= new Promise<void>((resolve) => {
    const seen = () => {
      if (document.body.dataset.ready !== 'true') return false;
      resolve();
      return true;
    };
    if (seen()) return;
    const watch = new MutationObserver(() => seen() && watch.disconnect());
    watch.observe(document.body, { attributes: true, attributeFilter: ['data-ready'] });
  });
  return drawn;
}
