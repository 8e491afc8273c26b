import { describe, it, expect, vi } from 'vitest';
import { WebGLRenderer } from 'three';
import { contextAttributes } from './contextAttributes';

/**
 * What three's WebGLRenderer asks the canvas for, recorded by a canvas that has no WebGL (so the
 * renderer then throws, after asking). R3F builds its renderer as
 * `new WebGLRenderer({ canvas, powerPreference: 'high-performance', antialias: true, alpha: true, ...gl })`
 * (@react-three/fiber's createRenderer); three itself is the oracle here.
 */
function askedFor(gl: Record<string, unknown>): WebGLContextAttributes {
  const asked: WebGLContextAttributes[] = [];
  const canvas = {
    setAttribute() {},
    addEventListener() {},
    removeEventListener() {},
    getContext(name: string, attributes?: WebGLContextAttributes) {
      if (name === 'webgl2' && attributes) asked.push(attributes);
      return null;
    },
  };
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {}); // three reports the failed context
  try {
    expect(() => new WebGLRenderer({ canvas: canvas as unknown as HTMLCanvasElement, powerPreference: 'high-performance', antialias: true, alpha: true, ...gl })).toThrow();
  } finally {
    quiet.mockRestore();
  }
  expect(asked.length).toBeGreaterThan(0);
  return asked[0];
}

describe('the scene’s WebGL context attributes', () => {
  it('are exactly what three’s renderer asks for, for the globe’s options and for R3F’s defaults', () => {
    for (const gl of [
      { antialias: true, preserveDrawingBuffer: true, alpha: true, powerPreference: 'high-performance' as const },
      { antialias: false, preserveDrawingBuffer: true, alpha: true, powerPreference: 'high-performance' as const },
      {},
      { depth: false, stencil: true, premultipliedAlpha: false, powerPreference: 'low-power' as const },
    ]) {
      expect(contextAttributes(gl)).toEqual(askedFor(gl));
    }
    expect(contextAttributes(undefined)).toEqual(askedFor({}));
  });

  it('are left to the renderer when the prop is a renderer, a factory or brings its own context', () => {
    expect(contextAttributes(() => null)).toBeNull();
    expect(contextAttributes({ render() {} })).toBeNull();
    expect(contextAttributes({ context: {} })).toBeNull();
  });
});
