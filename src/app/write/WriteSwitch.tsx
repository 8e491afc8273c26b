/**
 * WriteSwitch: the Write mode switch of the Live tab. Offered only when the
 * live API says it takes writes; otherwise shown disabled with the reason
 * (start the server with GEOSHARD_WRITES=1). Test hooks: write-toggle (role
 * switch, aria-checked, disabled), write-availability (data-state enabled |
 * disabled | unknown).
 */
import { useAppStore } from '../shell/store';
import type { WriteAvailability } from './availability';

export interface WriteSwitchProps {
  /** The switch's position (the slice's writeMode). */
  on: boolean;
  availability: WriteAvailability;
}

export function WriteSwitch({ on, availability }: WriteSwitchProps) {
  const appStore = useAppStore();
  const enabled = availability.state === 'enabled';
  return (
    <div className="write-switch-row">
      <label className="live-switch">
        <button type="button" role="switch" aria-checked={on && enabled} disabled={!enabled} data-testid="write-toggle" onClick={() => appStore.getState().setWriteMode(!on)}>
          <span className="knob" aria-hidden="true" />
        </button>
        <b>Write</b> <span className="dim">{on && enabled ? 'on: click the globe to place a restaurant' : 'off'}</span>
      </label>
      <p className={`small write-availability ${enabled ? 'dim' : 'write-off'}`} data-testid="write-availability" data-state={availability.state}>
        {enabled ? 'The live API takes writes (GEOSHARD_WRITES=1): loopback only, from this page.' : availability.reason}
      </p>
    </div>
  );
}
