/**
 * Strip: one collapsible strip under the globe (index bar, ribbon, review
 * ribbon). Collapsed, only a one-line button shows, so the globe keeps its
 * size; the strip stays mounted (its drivers keep running). Whether each is
 * collapsed is this browser's preference (localStorage); narrow screens start
 * with the strips collapsed.
 */
import type { ReactNode } from 'react';
import { useAppStore, useApp } from './store';
import { STRIPS, type StripId } from './shellSlice';
import type { AppStore } from './types';

const KEY = 'geoshard.strips.collapsed';

/** loadStripPrefs applies the stored collapsed strips (or, with none stored, collapses all on a narrow screen). */
export function loadStripPrefs(appStore: AppStore): void {
  let stored: unknown = null;
  try {
    stored = JSON.parse(localStorage.getItem(KEY) ?? 'null');
  } catch {
    stored = null;
  }
  const narrow = matchMedia('(max-width: 900px)').matches;
  for (const id of STRIPS) {
    const c = stored && typeof stored === 'object' && id in stored ? !!(stored as Record<string, unknown>)[id] : narrow;
    appStore.getState().setCollapsed(id, c);
  }
}

export function Strip({ id, title, show = true, children }: { id: StripId; title: string; show?: boolean; children: ReactNode }) {
  const appStore = useAppStore();
  const collapsed = useApp((s) => s.collapsed[id]);
  const toggle = () => {
    appStore.getState().setCollapsed(id, !collapsed);
    try {
      localStorage.setItem(KEY, JSON.stringify(appStore.getState().collapsed));
    } catch {
      // A private window without storage: the choice lasts for this page only.
    }
  };
  return (
    <div className="strip" data-strip={id} data-collapsed={collapsed || undefined} hidden={!show}>
      <button type="button" className="strip-toggle" aria-expanded={!collapsed} data-testid={`strip-toggle-${id}`} onClick={toggle} title={collapsed ? `Show the ${title}` : `Hide the ${title}`}>
        {collapsed ? '▸' : '▾'} <span className="strip-title">{title}</span>
      </button>
      <div className="strip-body">{children}</div>
    </div>
  );
}
