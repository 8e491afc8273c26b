/**
 * The tour's parameter of the link (its entry `url.panel` in src/app/features.ts; shell/linkCodec.ts
 * loops over the list): `tour=N`, step N of the guided tour (1 = the first). Tour steps are
 * history steps (tour.ts pushes them): while a tour is on, or when an entry is a tour step,
 * back/forward applies the entry's whole panel state. A tour link opens still.
 */
import type { PanelParams } from '../shell/linkCodec';
import { TOUR_STEPS } from './steps';

declare module '../shell/linkCodec' {
  interface UrlShell {
    /** The tour step shown (1-based), or null when the tour is not on. */
    tour: number | null;
  }
}

export const TOUR_URL: PanelParams = {
  keys: ['tour'],
  still: ['tour'],
  defaults: () => ({ tour: null }),
  parse(q, shell, problems) {
    const tour = q.get('tour');
    if (tour !== null) {
      const n = Number(tour);
      if (tour.trim() !== '' && Number.isInteger(n) && n >= 1 && n <= TOUR_STEPS.length) shell.tour = n;
      else problems.push(`tour=${tour} is ignored: expected a tour step, an integer from 1 to ${TOUR_STEPS.length}`);
    }
  },
  format(shell, q) {
    if (shell.tour !== null) q.set('tour', String(shell.tour));
    else q.delete('tour');
  },
  of: (s) => ({ tour: s.tour }),
  apply: (store, shell) => store.getState().setTour(shell.tour),
  isStep: (shell, s) => shell.tour !== null || s.tour !== null,
};
