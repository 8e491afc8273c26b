/**
 * SidePanel: one tab per entry of PANELS; the open tab is in the store (and
 * the URL, shell/shellState.ts). Beside the globe on wide screens, a bottom
 * sheet under it on narrow ones (styles.css); the same test ids at every size.
 */
import { useAppStore, useApp } from './store';
import { PANELS } from './panels';
import type { TabId } from './url';

export function SidePanel() {
  const appStore = useAppStore();
  const active = useApp((s) => s.tab);
  return (
    <aside className="side-panel" aria-label="Panels" data-testid="side-panel">
      <div className="tabs" role="tablist">
        {PANELS.map((p) => (
          <button key={p.id} role="tab" type="button" id={`tab-${p.id}`} data-testid={`tab-${p.id}`} aria-selected={active === p.id} aria-controls={`panel-${p.id}`} onClick={() => appStore.getState().setTab(p.id as TabId)}>
            {p.title}
          </button>
        ))}
      </div>
      {PANELS.map((p) => (
        <div key={p.id} role="tabpanel" id={`panel-${p.id}`} aria-labelledby={`tab-${p.id}`} hidden={active !== p.id} className="panel-body">
          {active === p.id && <p.Component />}
        </div>
      ))}
    </aside>
  );
}
