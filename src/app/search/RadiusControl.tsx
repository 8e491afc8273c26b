/**
 * RadiusControl: the search radius as a slider (1–100 miles, or 1–160 km),
 * a number field accepting any radius up to the core's maximum
 * (MAX_RADIUS_KM), a miles/km switch, and the "no location" switch.
 *
 * The slider is uncontrolled: each input event writes the store (the
 * covering follows at most once per animation frame, in a worker), and the
 * store is written back to the inputs through a subscription, so dragging
 * never re-renders React. Releasing the slider re-fits the view if the
 * circle outgrew it.
 */
import { useEffect, useRef, useState } from 'react';
import { useAppStore, useApp } from '../shell/store';
import { maxRadiusIn } from './searchSlice';
import { parseRadius, MAX_RADIUS_KM, KM_PER_MILE, type Radius, type RadiusUnit } from '../../core/index';
import { refitRadius } from './search';

/** The slider's range in each unit: 1 to 100 miles (about 160 km). */
export const SLIDER_RANGE: Record<RadiusUnit, [number, number]> = { mi: [1, 100], km: [1, 160] };

const show = (v: number) => String(Number(v.toFixed(2)));

export function RadiusControl() {
  const appStore = useAppStore();
  const unit = useApp((s) => s.searchRadius.unit);
  const noLocation = useApp((s) => s.noLocation);
  const slider = useRef<HTMLInputElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState('');

  useEffect(() => {
    let last: Radius | null = null;
    const write = (r: Radius) => {
      if (r === last) return;
      last = r;
      if (slider.current) slider.current.value = String(Math.min(SLIDER_RANGE[r.unit][1], Math.max(SLIDER_RANGE[r.unit][0], r.value)));
      if (field.current && document.activeElement !== field.current) field.current.value = show(r.value);
      slider.current?.style.setProperty('--fill', `${(100 * (Math.min(r.value, SLIDER_RANGE[r.unit][1]) - SLIDER_RANGE[r.unit][0])) / (SLIDER_RANGE[r.unit][1] - SLIDER_RANGE[r.unit][0])}%`);
    };
    write(appStore.getState().searchRadius);
    return appStore.subscribe((s) => s.searchRadius, write);
  }, []);

  const [lo, hi] = SLIDER_RANGE[unit];
  return (
    <section className="radius-control">
      <h3>Radius</h3>
      <div className="radius-row">
        <input
          ref={slider}
          type="range"
          min={lo}
          max={hi}
          step={1}
          aria-label={`Radius in ${unit === 'mi' ? 'miles' : 'kilometres'}`}
          data-testid="radius-slider"
          onChange={(e) => appStore.getState().setSearchRadius(Number(e.currentTarget.value))}
          onPointerUp={() => refitRadius(appStore)}
          onKeyUp={() => refitRadius(appStore)}
        />
        <input
          ref={field}
          type="number"
          className="radius-field"
          min={0.1}
          max={Number(maxRadiusIn(unit).toFixed(2))}
          step="any"
          aria-label="Radius"
          aria-invalid={problem !== ''}
          data-testid="radius-input"
          onChange={(e) => {
            const raw = e.currentTarget.value;
            if (raw.trim() === '') return;
            try {
              const r = parseRadius(`${raw}${unit}`, unit, 'radius');
              setProblem('');
              appStore.getState().setSearchRadius(r.value, unit);
            } catch {
              setProblem(`${raw} ${unit} is not a radius here: enter a number greater than 0 and at most ${unit === 'mi' ? `${(MAX_RADIUS_KM / KM_PER_MILE).toFixed(1)} mi` : `${MAX_RADIUS_KM} km`}.`);
            }
          }}
          onBlur={(e) => {
            e.currentTarget.value = show(appStore.getState().searchRadius.value);
            setProblem('');
            refitRadius(appStore);
          }}
          onKeyDown={(e) => e.key === 'Enter' && (e.currentTarget.blur(), undefined)}
        />
        <div className="unit-switch" role="group" aria-label="Unit">
          {(['mi', 'km'] as const).map((u) => (
            <button
              key={u}
              type="button"
              aria-pressed={unit === u}
              data-testid={`unit-${u}`}
              onClick={() => {
                appStore.getState().setRadiusUnit(u);
                setProblem('');
              }}
            >
              {u}
            </button>
          ))}
        </div>
      </div>
      {problem && (
        <p className="field-problem" role="alert" data-testid="radius-problem">
          {problem}
        </p>
      )}
      <label className="no-location">
        <input type="checkbox" checked={noLocation} data-testid="no-location" onChange={(e) => appStore.getState().setNoLocation(e.currentTarget.checked)} /> No location{' '}
        <span className="dim">(a search without a circle)</span>
      </label>
    </section>
  );
}
