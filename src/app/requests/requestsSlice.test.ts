import { describe, it, expect } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { AppState } from '../shell/types';
import { createRequestsSlice } from './requestsSlice';
import type { WorkloadAnswer } from './requests';

const store = () => createStore<AppState>()((...a) => Object.assign({}, createRequestsSlice(...a)) as AppState);
/** A rated workload by hand: cells 10, 11, 12 with rates 1, 3 and 12. */
const answer = (source: string): WorkloadAnswer => ({ source, searches: 4, weight: 13, ordinals: Int32Array.of(10, 11, 12), rates: Float64Array.of(1, 3, 12), corners: new Float32Array(24), ms: 1 });

describe('requests slice', () => {
  it('starts idle, with nothing loaded and no hot ranges', () => {
    expect(store().getState()).toMatchObject({ requestWorkload: null, requestHotspots: null, requestStatus: { state: 'idle', source: null, error: null } });
  });

  it('keeps a rated workload with its color scale, and forgets the hot ranges of the previous one', () => {
    const st = store();
    st.getState().setRequestLoading('a.csv');
    expect(st.getState().requestStatus).toEqual({ state: 'loading', source: 'a.csv', error: null });
    st.getState().setRequestHotspots({ hash: 'h', factor: 2, hotspots: [] });
    st.getState().setRequestWorkload(answer('a.csv'));
    const w = st.getState().requestWorkload!;
    // 1 in [1, 2), 3 in [2, 5), 12 in [10, 20): the 1-2-5 buckets.
    expect(w.scale.edges).toEqual([1, 2, 5, 10, 20]);
    expect(w.scale.counts).toEqual([1, 1, 0, 1]);
    expect(st.getState().requestStatus).toEqual({ state: 'ready', source: 'a.csv', error: null });
    expect(st.getState().requestHotspots).toBeNull();
  });

  it('records why a workload was refused and keeps the last good one shown', () => {
    const st = store();
    st.getState().setRequestWorkload(answer('a.csv'));
    st.getState().setRequestLoading('bad.csv');
    st.getState().setRequestError('bad.csv', 'bad.csv is not a valid workload file:\n  line 2: radius "5 miles" is invalid');
    expect(st.getState().requestStatus).toMatchObject({ state: 'error', source: 'bad.csv' });
    expect(st.getState().requestWorkload!.source).toBe('a.csv');
  });
});
