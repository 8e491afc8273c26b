/**
 * LiveStatus: the connection and drift verdict of /api/status: which node,
 * which index, whether its _meta hash is the boundary file's, and when not,
 * what is wrong and the command that fixes it.
 *
 * Test hook: data-testid="live-status" with data-state = loading | up | down |
 * drift | missing-index | no-meta | boundary-error | index-error | other-file |
 * not-mounted | network | timeout | error | bad-response.
 */
import { useAppStore, useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { describeStatus, type StatusVerdict } from '../api/status';
import { routingKeyOf } from '../../server/wire';

export function LiveStatus() {
  const appStore = useAppStore();
  const st = useApp((s) => s.liveStatus);
  const data = useApp(readyData);
  let verdict: StatusVerdict;
  if (st.phase === 'idle' || st.phase === 'loading') {
    verdict = { level: 'warn', state: 'loading', headline: 'Asking the live API for the node’s status…', detail: '', command: null };
  } else if (st.failure || !st.status) {
    const f = st.failure!;
    verdict = {
      level: 'error',
      state: f.kind,
      headline: f.kind === 'not-mounted' ? 'The live API is not served here.' : f.kind === 'network' ? 'The explorer’s server does not answer.' : 'The live API’s status could not be read.',
      detail: f.message,
      command: f.kind === 'not-mounted' || f.kind === 'network' ? 'npm start' : null,
    };
  } else {
    verdict = describeStatus(st.status, data ? { hash: data.file.hash, routing: routingKeyOf(data.file) } : null);
  }
  return (
    <section className={`live-status level-${verdict.level}`} data-testid="live-status" data-state={verdict.state} aria-live="polite">
      <p className="live-status-head">
        <span className="live-dot" aria-hidden="true" />
        <b>{verdict.headline}</b>
      </p>
      {verdict.detail && <p className="small live-status-detail">{verdict.detail}</p>}
      {verdict.command && (
        <p className="small">
          Run <code className="live-command" data-testid="live-command">{verdict.command}</code>
          <button type="button" className="link" onClick={() => appStore.getState().retryLive()} data-testid="live-retry">
            check again
          </button>
        </p>
      )}
    </section>
  );
}
