/**
 * Tour: the guided demo's card (`?tour=N`). Shows step N's title and words,
 * with Back, Next and End; each step is a link (tour/steps.ts), applied the
 * way back/forward applies one, so the presenter can also use the browser's
 * back button or paste a step's link.
 */
import { useEffect } from 'react';
import { useApp } from '../shell/store';
import { TOUR_STEPS } from './steps';
import { goToStep, stepText } from './tour';

function LiveNote() {
  const phase = useApp((s) => s.liveStatus.phase);
  const up = useApp((s) => s.liveStatus.status?.connection.up ?? false);
  if (phase === 'idle' || phase === 'loading') return <p className="tour-note dim">Asking the search node…</p>;
  if (up) return <p className="tour-note">The Live panel shows both searches side by side.</p>;
  return (
    <p className="tour-note" data-testid="tour-no-node">
      No search node answers here: start one with <code>npm run cluster:start</code> and reload, or skip this step.
    </p>
  );
}

export function Tour() {
  const n = useApp((s) => s.tour);
  const text = useApp((s) => (s.tour ? stepText(TOUR_STEPS[s.tour - 1], s) : ''));
  useEffect(() => {
    if (n === null) return;
    const onKey = (e: KeyboardEvent) => {
      if ((e.target as HTMLElement | null)?.closest?.('input, textarea, select')) return;
      if (e.key === 'ArrowRight' && n < TOUR_STEPS.length) goToStep(n + 1);
      else if (e.key === 'ArrowLeft' && n > 1) goToStep(n - 1);
      else if (e.key === 'Escape') goToStep(null);
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [n]);
  if (n === null) return null;
  const step = TOUR_STEPS[n - 1];
  const last = n === TOUR_STEPS.length;
  return (
    <section className="tour-card" aria-label="Tour" data-testid="tour-card" data-step={step.id}>
      <p className="tour-count dim small" data-testid="tour-count">
        Tour · step {n} of {TOUR_STEPS.length}
      </p>
      <h2 data-testid="tour-title">{step.title}</h2>
      <p data-testid="tour-text">{text}</p>
      {step.live && <LiveNote />}
      <div className="tour-buttons">
        <button type="button" className="chip" disabled={n === 1} onClick={() => goToStep(n - 1)} data-testid="tour-back">
          ← Back
        </button>
        {last ? (
          <button type="button" className="chip tour-primary" onClick={() => goToStep(null)} data-testid="tour-end">
            Finish
          </button>
        ) : (
          <button type="button" className="chip tour-primary" onClick={() => goToStep(n + 1)} data-testid="tour-next">
            Next →
          </button>
        )}
        <button type="button" className="chip tour-skip" onClick={() => goToStep(null)} data-testid="tour-skip">
          Skip tour
        </button>
      </div>
    </section>
  );
}
