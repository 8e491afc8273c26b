import { describe, it, expect } from 'vitest';
import { createUniforms } from './uniforms';
import { writeMovingRanges, writeRegionPaint } from './regionPaint';
import { createAppStore } from '../shell/store';

describe('scene uniforms', () => {
  it('belong to the canvas that made them: two sets share no value', () => {
    const a = createUniforms({ debug: false });
    const b = createUniforms({ debug: true });
    expect(a.uDebug.value).toBe(0);
    expect(b.uDebug.value).toBe(1);
    writeMovingRanges(a, Int32Array.from([10, 20, 30, 40]));
    expect(a.uMovingCount.value).toBe(2);
    expect(a.uMovingStart.value.slice(0, 3)).toEqual([10, 30, 0]);
    expect(a.uMovingEnd.value.slice(0, 3)).toEqual([20, 40, 0]);
    expect(b.uMovingCount.value).toBe(0);
    writeRegionPaint(a, { colors: [[1, 0, 0], [0, 1, 0]], marked: [false, true] });
    expect(a.uRegionOn.value).toBe(1);
    // One RGBA texel per shard: red unmarked (alpha 255), green marked (alpha 0).
    expect(Array.from(a.uRegion.value!.image.data as Uint8Array)).toEqual([255, 0, 0, 255, 0, 255, 0, 0]);
    expect(b.uRegionOn.value).toBe(0);
    writeRegionPaint(a, null);
    expect([a.uRegionOn.value, a.uRegion.value]).toEqual([0, null]);
  });

  it('take the region paint and the moving ranges from the store, which refuses more than 8 ranges', () => {
    const store = createAppStore();
    expect(store.getState().regionPaint).toBeNull();
    expect(store.getState().movingRanges.length).toBe(0);
    store.getState().setMovingRanges(Int32Array.from([0, 5]));
    expect(Array.from(store.getState().movingRanges)).toEqual([0, 5]);
    expect(() => store.getState().setMovingRanges(new Int32Array(18))).toThrow(/18 ordinals is not at most 8/);
    expect(() => store.getState().setMovingRanges(new Int32Array(3))).toThrow(RangeError);
    expect(Array.from(store.getState().movingRanges)).toEqual([0, 5]);
  });
});
