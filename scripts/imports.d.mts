// Declarations for scripts/imports.mjs (a plain Node script; scripts/imports.test.ts imports it).
/** One import between two files of src/ (paths relative to the repository, `/`-separated). */
export interface Edge {
  from: string;
  to: string;
  /** The specifier as written. */
  spec: string;
  /** A type-only import (`import type`, `export type … from`, or every name marked `type`). */
  type: boolean;
}
export interface Graph {
  files: string[];
  edges: Edge[];
}
export const LOWER: Record<string, string[]>;
export const SHARED: RegExp[];
export const STORE_TYPES: string[];
export const PENDING_TYPE_MODULES: string[];
export function layerOf(file: string): string;
export function isTest(file: string): boolean;
export function graph(): Graph;
export function counts(e: Edge): boolean;
export function circles(g: Graph, keep?: (e: Edge) => boolean): Edge[][];
export function backArrows(g: Pick<Graph, 'edges'>): Edge[];
export function describeCircle(path: Edge[]): string;
export const ORDER: string[];
export const NOT_HELPERS: Map<string, string>;
export function testHelpersOutside(g: Graph): string[];
