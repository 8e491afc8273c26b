/**
 * ControlsFold: the globe's top-left boxes (cell level, layers, and what the features add, such
 * as color-by) behind one button on a phone-sized screen, so the globe shows the data and not
 * the controls. The button and the folding exist only under the phone media query (styles.css:
 * `.controls-fold`); on a wider screen the boxes show as before and the button is not rendered
 * visibly. Escape or the button closes the open boxes.
 *
 * Test hooks: globe-controls-toggle (aria-expanded), globe-controls (data-open).
 */
import { useId, useState, type ReactNode } from 'react';

export function ControlsFold({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="controls-fold" data-open={open ? 'true' : undefined}>
      <button
        type="button"
        className="controls-fold-toggle"
        aria-expanded={open}
        aria-controls={id}
        aria-label="Layers, cell level and colours"
        data-testid="globe-controls-toggle"
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">{open ? '✕' : '☰'}</span> Layers
      </button>
      <div
        className="controls-fold-body"
        id={id}
        data-testid="globe-controls"
        data-open={String(open)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open) {
            setOpen(false);
            e.stopPropagation();
          }
        }}
      >
        {children}
      </div>
    </div>
  );
}
