/**
 * The shell's own state: the side panel's open tab, the tour step shown, the
 * notice about a link's ignored parameters, and which strips are collapsed.
 * The tab and the tour step travel in the URL (shell/linkCodec.ts, tour/tourUrl.ts; written by
 * shell/shellState.ts); the strips are a preference of this browser.
 */
import type { SliceCreator } from './types';
import { TABS, type TabId } from './url';

/** The strips under the globe that can collapse. */
export const STRIPS = ['index', 'ribbon', 'review'] as const;
export type StripId = (typeof STRIPS)[number];

export interface ShellSlice {
  tab: TabId;
  /** The tour step shown (1-based), or null when the tour is off. */
  tour: number | null;
  /** A message per ignored link parameter (naming it and what is valid); empty when the link was clean or the notice was dismissed. */
  urlProblems: string[];
  /** Collapsed strips: only their one-line title shows. */
  collapsed: Record<StripId, boolean>;
  setTab: (tab: TabId) => void;
  setTour: (step: number | null) => void;
  setUrlProblems: (problems: string[]) => void;
  setCollapsed: (strip: StripId, collapsed: boolean) => void;
}

declare module './types' {
  interface AppState extends ShellSlice {}
}

export const createShellSlice: SliceCreator<ShellSlice> = (set, get) => ({
  tab: TABS[0],
  tour: null,
  urlProblems: [],
  collapsed: { index: false, ribbon: false, review: false },
  setTab: (tab) => {
    if (get().tab !== tab) set({ tab });
  },
  setTour: (tour) => {
    if (get().tour !== tour) set({ tour });
  },
  setUrlProblems: (urlProblems) => set({ urlProblems }),
  setCollapsed: (strip, c) => {
    if (get().collapsed[strip] !== c) set({ collapsed: { ...get().collapsed, [strip]: c } });
  },
});
