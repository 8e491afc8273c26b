/**
 * The Migration view's state: the latest reading of /api/status, written by
 * migration/migrationPoller.ts while the Migration tab is open.
 */
import type { SliceCreator } from '../shell/types';
import type { MigrationReading } from '../api/migration';

export interface MigrationWatch {
  /** idle: not watching; loading: first answer on its way; ready: `reading` holds the latest answer. */
  phase: 'idle' | 'loading' | 'ready';
  reading: MigrationReading | null;
  /** Date.now() of the latest answer (0 before one). */
  at: number;
}

export interface MigrationSlice {
  migrationWatch: MigrationWatch;
  /** Written by migration/migrationPoller.ts only. */
  setMigrationWatch: (w: MigrationWatch) => void;
}

declare module '../shell/types' {
  interface AppState extends MigrationSlice {}
}

export const IDLE_WATCH: MigrationWatch = Object.freeze({ phase: 'idle', reading: null, at: 0 }) as MigrationWatch;

export const createMigrationSlice: SliceCreator<MigrationSlice> = (set) => ({
  migrationWatch: IDLE_WATCH,
  setMigrationWatch: (migrationWatch) => set({ migrationWatch }),
});
