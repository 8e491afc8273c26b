/** DataError: why the boundary file could not be shown, every problem listed. */
import { useApp } from './store';
import { ProblemList } from './ProblemList';

export function DataError() {
  const data = useApp((s) => s.data);
  if (data.status !== 'error') return null;
  return (
    <div className="data-error" role="alert" data-testid="data-error">
      <h2>{data.title}</h2>
      <ProblemList problems={data.problems} />
      <p>Nothing is drawn from an invalid boundary file. Fix the file (or pick another with ?boundaries=/path.json) and reload.</p>
    </div>
  );
}
