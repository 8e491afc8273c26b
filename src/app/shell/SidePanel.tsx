/** SidePanel: the right-hand panel, one tab per entry of PANELS. */
import { useState } from 'react';
import { PANELS } from './panels';

export function SidePanel() {
  const [active, setActive] = useState(PANELS[0].id);
  return (
    <aside className="side-panel" aria-label="Panels">
      <div className="tabs" role="tablist">
        {PANELS.map((p) => (
          <button key={p.id} role="tab" type="button" id={`tab-${p.id}`} data-testid={`tab-${p.id}`} aria-selected={active === p.id} aria-controls={`panel-${p.id}`} onClick={() => setActive(p.id)}>
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
