/**
 * WriteFailureNote: why the last write or delete was refused, in the API's
 * own words, with the field at fault named (a 400's `param`) and, for a busy
 * answer, when to try again. Test hooks: write-failure (data-kind,
 * data-param), write-failure-param.
 */
import type { LiveFailure } from '../api/request';

export interface WriteFailureNoteProps {
  failure: LiveFailure;
  /** The request that failed. */
  op: 'put' | 'delete';
}

const WHAT: Partial<Record<LiveFailure['kind'], string>> = {
  invalid: 'refused: invalid input',
  forbidden: 'refused: writes not allowed',
  'not-found': 'not found',
  drift: 'refused: boundary drift',
  busy: 'busy: try again',
  unavailable: 'OpenSearch unavailable',
};

export function WriteFailureNote({ failure, op }: WriteFailureNoteProps) {
  return (
    <div className={`live-failure write-failure kind-${failure.kind}`} data-testid="write-failure" data-kind={failure.kind} data-param={failure.param ?? ''}>
      <p>
        <b>
          {op === 'put' ? 'Write' : 'Delete'} {WHAT[failure.kind] ?? 'failed'}
          {failure.httpStatus !== null ? ` (HTTP ${failure.httpStatus})` : ''}
        </b>
        {failure.param && (
          <>
            {' '}
            · field <span className="mono write-param" data-testid="write-failure-param">{failure.param}</span>
          </>
        )}
      </p>
      <p data-testid="write-failure-message">{failure.message}</p>
      {failure.retryAfterS !== undefined && <p className="small">The server asks to retry after {failure.retryAfterS} s.</p>}
    </div>
  );
}
