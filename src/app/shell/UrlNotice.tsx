/** UrlNotice: names each parameter of the link that was ignored, and what is valid (the address bar already shows what the page shows). */
import { useAppStore, useApp } from './store';

export function UrlNotice() {
  const appStore = useAppStore();
  const problems = useApp((s) => s.urlProblems);
  if (problems.length === 0) return null;
  return (
    <div className="url-notice" role="status" data-testid="url-notice">
      <b>Some of this link was ignored</b>
      <ul>
        {problems.map((p, k) => (
          <li key={k} className="mono" data-testid="url-problem">
            {p}
          </li>
        ))}
      </ul>
      <button type="button" className="chip" data-testid="url-notice-dismiss" onClick={() => appStore.getState().setUrlProblems([])}>
        dismiss
      </button>
    </div>
  );
}
