/**
 * WriteMode: the Live tab's Write section. With the live API taking writes
 * (GEOSHARD_WRITES=1) the switch turns Write mode on; a click on the globe
 * then places a restaurant (WriteForm), Enter writes it, and the answer is
 * set beside the routing core's view (WriteReport) or the refusal is shown
 * (WriteFailureNote). The placed restaurant can be deleted. Without writes
 * the switch is disabled and says why. Test hooks: write-mode (data-on),
 * write-hint, write-delete, write-pending, and those of the parts.
 */
import { useAppStore, useApp } from '../shell/store';
import { writeAvailability } from './availability';
import { deletePlaced } from './writeActions';
import { WriteSwitch } from './WriteSwitch';
import { WriteForm } from './WriteForm';
import { WriteReport } from './WriteReport';
import { WriteFailureNote } from './WriteFailureNote';
import '../ui/write.css';

export function WriteMode() {
  const appStore = useAppStore();
  const on = useApp((s) => s.writeMode);
  const live = useApp((s) => s.liveStatus);
  const draft = useApp((s) => s.writeDraft);
  const request = useApp((s) => s.writeRequest);
  const availability = writeAvailability(live);
  const active = on && availability.state === 'enabled';
  const busy = request.phase === 'sending' || request.phase === 'deleting';
  return (
    <section className="write-mode" data-testid="write-mode" data-on={String(active)}>
      <WriteSwitch on={on} availability={availability} />
      {active && (
        <>
          {!draft && (
            <p className="small dim" data-testid="write-hint">
              {request.answer || request.failure ? 'Click the globe to place another restaurant.' : 'Click the globe where the restaurant is: a form opens there; Enter writes it through the live API.'}
            </p>
          )}
          {draft && <WriteForm draft={draft} busy={busy} />}
          {busy && (
            <p className="small dim" data-testid="write-pending">
              {request.phase === 'sending' ? 'writing…' : 'deleting…'}
            </p>
          )}
          {request.phase === 'done' && request.failure && request.op && <WriteFailureNote failure={request.failure} op={request.op} />}
          {request.phase === 'done' && request.answer && request.core && <WriteReport answer={request.answer} core={request.core} />}
          {request.placed && (
            <p className="write-actions">
              <button type="button" data-testid="write-delete" disabled={busy} onClick={() => void deletePlaced(appStore)}>
                Delete {request.placed.name} ({request.placed.id})
              </button>
            </p>
          )}
        </>
      )}
    </section>
  );
}
