/**
 * WriteForm: the restaurant placed by the last click, before it is written:
 * where it is, its cell and the shard the routing core names, and the form
 * (name, optional cuisines and price level). The name field takes the focus
 * at each click, so a click and Enter writes it. Test hooks: write-form
 * (data-id, data-lat, data-lng), write-name, write-cuisine-<value>,
 * write-price, write-submit, write-draft-cell, write-draft-core.
 */
import { useEffect, useRef, type FormEvent } from 'react';
import { useAppStore } from '../shell/store';
import { formatLatLng } from '../shell/format';
import { CUISINES, PRICE_LEVELS } from '../api/writes';
import type { WriteDraft } from './writeSlice';
import { submitDraft } from './writeActions';

export interface WriteFormProps {
  draft: WriteDraft;
  /** A request is out: the form waits. */
  busy: boolean;
}

export function WriteForm({ draft, busy }: WriteFormProps) {
  const appStore = useAppStore();
  const name = useRef<HTMLInputElement>(null);
  useEffect(() => {
    name.current?.focus({ preventScroll: true });
    name.current?.select();
  }, [draft.id]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void submitDraft(appStore);
  };
  const edit = appStore.getState().editDraft;
  const toggle = (c: string) => edit({ cuisines: draft.cuisines.includes(c) ? draft.cuisines.filter((x) => x !== c) : [...draft.cuisines, c] });
  const { core } = draft;
  return (
    <form className="write-form" data-testid="write-form" data-id={draft.id} data-lat={draft.lat} data-lng={draft.lng} onSubmit={submit}>
      <p className="write-where">
        <b>{formatLatLng(draft.lat, draft.lng)}</b> <span className="dim mono small">id {draft.id}</span>
      </p>
      <p className="small">
        cell <span className="mono" data-testid="write-draft-cell">{core.token}</span> · the core names{' '}
        <span className="mono" data-testid="write-draft-core" data-shard={core.read.shard}>
          {core.read.name} (shard {core.read.shard})
        </span>
        {core.writes.length > 1 && <span className="dim"> · written to both owners while the range moves</span>}
      </p>
      <label className="write-field">
        <span>name</span>
        <input ref={name} data-testid="write-name" value={draft.name} maxLength={200} onChange={(e) => edit({ name: e.target.value })} />
      </label>
      <details className="write-field write-cuisines">
        <summary>
          cuisines <span className="dim">{draft.cuisines.length > 0 ? draft.cuisines.join(', ') : '(optional: none)'}</span>
        </summary>
        {CUISINES.map((c) => (
          <label key={c} className="write-chip">
            <input type="checkbox" data-testid={`write-cuisine-${c}`} checked={draft.cuisines.includes(c)} onChange={() => toggle(c)} />
            {c}
          </label>
        ))}
      </details>
      <label className="write-field">
        <span>price level</span>
        <select data-testid="write-price" value={draft.priceLevel ?? ''} onChange={(e) => edit({ priceLevel: e.target.value === '' ? null : Number(e.target.value) })}>
          <option value="">none</option>
          {PRICE_LEVELS.map((p) => (
            <option key={p} value={p}>
              {'$'.repeat(p)} ({p})
            </option>
          ))}
        </select>
      </label>
      <p className="write-actions">
        <button type="submit" data-testid="write-submit" disabled={busy}>
          {busy ? 'writing…' : 'Write restaurant (Enter)'}
        </button>
        <button type="button" className="link" onClick={() => appStore.getState().discardDraft()}>
          discard
        </button>
      </p>
    </form>
  );
}
