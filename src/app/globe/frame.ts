/**
 * The per-frame state of the scene: values that change every frame or every
 * pointer move and so stay out of React (the view geometry, the morph's
 * progress, drag velocity, the pointer). FrameDriver advances it; the pointer
 * handlers and the label overlay read it.
 *
 * One frame object per store: the view slice creates it with the store
 * (`frame: createFrame()`) and never replaces it, so it is neither module
 * state nor React state. Read it with store.getState().frame (or
 * useApp((s) => s.frame) in a component: a stable reference, no re-renders).
 */
import type { AppState } from '../shell/types';
import { latLngOfFaceST } from './faces';
import { netFaceAt } from './cubeNet';
import { pixelsPerUnit, type ViewGeometry } from './view';

const RAD = Math.PI / 180;

/** createFrame returns a new per-frame object (the view slice makes one per store). */
export function createFrame() {
  return {
    /** The geometry of the last frame drawn. */
    view: { lat: 0, lng: 0, zoom: 1, morph: 0, flat: 'map', mapLat: 0, net: [0, 0], width: 1, height: 1 } as ViewGeometry,
    /** Where the user wants the net's centre (before keeping the net in view). */
    netWanted: [0, 0] as [number, number],
    /** Linear progress of the flatten morph, 0 (globe) to 1 (flat). */
    morphT: 0,
    /** Drag velocity in CSS px per ms, for inertia after release. */
    velocity: [0, 0] as [number, number],
    dragging: false,
    /** Last pointer position over the canvas (CSS px) and whether it is over it. */
    pointer: { x: 0, y: 0, inside: false },
    /** A glide toward a point (double-click, the ribbon, the shard list). */
    fly: null as null | { from: { lat: number; lng: number; net: [number, number] }; to: { lat: number; lng: number; net: [number, number] }; t0: number },
    /** Whether the first frame has been set up; when the last frame started (ms). */
    started: false,
    /** Frames drawn so far. */
    count: 0,
    lastFrameAt: 0,
    wasMoving: false,
    /** The view (hover.ts viewKey) the hover readout was last computed for. */
    hoverView: '',
    /** Parts that arrived since the last frame (see markLoaded). */
    arrived: [] as string[],
    /** Asks react-three-fiber for a frame (set by FrameDriver). */
    invalidate: () => {},
  };
}

/** The per-frame state of one globe (see createFrame). */
export type Frame = ReturnType<typeof createFrame>;

/**
 * panBy moves the view by a drag of (dx, dy) CSS pixels: rotates the globe,
 * or slides the map or the net under the pointer. Does nothing mid-morph.
 * s is the store's current state (its camera, setCamera and frame).
 */
export function panBy(s: AppState, dx: number, dy: number): void {
  const frame = s.frame;
  const v = frame.view;
  const k = pixelsPerUnit(v);
  if (v.morph === 0) {
    s.setCamera(Math.max(-89.9, Math.min(89.9, s.camera.lat + dy / k / RAD)), s.camera.lng - dx / k / RAD);
  } else if (v.morph === 1 && v.flat === 'map') {
    s.setCamera(Math.max(-89.9, Math.min(89.9, v.mapLat + dy / k / RAD)), s.camera.lng - dx / k / RAD);
  } else if (v.morph === 1) {
    frame.netWanted = [v.net[0] - dx / k, v.net[1] + dy / k];
    const f = netFaceAt(frame.netWanted[0], frame.netWanted[1]);
    if (f) {
      const p = latLngOfFaceST(f.face, f.s, f.t);
      s.setCamera(p.lat, p.lng);
    }
    frame.invalidate();
  }
}

/**
 * markLoaded records that a part loaded after the first frame (cells, cities, land) has
 * arrived and asks for a frame; once that frame is drawn, FrameDriver adds the part to
 * `document.body.dataset.loaded` (space-separated, sorted), for tests and scripted demos.
 */
export function markLoaded(frame: Frame, part: string): void {
  frame.arrived.push(part);
  frame.invalidate();
}
