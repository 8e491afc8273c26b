// Declarations for scripts/app-imports.mjs (a plain Node script; src/app/kit.test.ts imports it).
export type Kind = 'kit' | 'host' | 'feature';
export interface Import {
  /** The importing file, relative to src/app. */
  file: string;
  /** The specifier as written. */
  spec: string;
}
export interface Folder {
  kind: Kind;
  /** Its files, relative to src/app. */
  files: string[];
  /** Per other src/app folder (`.` for src/app itself), the imports of it. */
  imports: Record<string, Import[]>;
}
export const KIT: string;
export const HOST: string[];
export const LIST: string[];
export function specifiers(text: string): string[];
export function house(): Record<string, Folder>;
export function crossings(folders: Record<string, Folder>, from: Kind, to: Kind): (Import & { from: string; to: string })[];
