/** The --engine flag of the commands that read a whole index (cells --from-index, audit): see src/cluster/enginePath.ts. */
import { CliError } from './io.ts';
import { ENGINE_CHOICES, type EngineChoice } from '../cluster/enginePath.ts';

/** The usage lines of --engine, aligned for a command's option list at `width` columns. */
export function engineUsage(width: number): string {
  const pad = (s: string) => s.padEnd(width);
  return (
    `${pad('  --engine E')}where the work runs: cluster (each shard computes with Painless over doc values;\n` +
    `${pad('')}only results come back), client (every document's doc values are streamed here),\n` +
    `${pad('')}or auto (default: the measured rule of docs/engine-paths.md). Both give the same answer`
  );
}

/** engineOf reads --engine (default auto); exit 2 naming the value and the valid ones otherwise. */
export function engineOf(value: unknown, command: string): EngineChoice {
  if (value === undefined) return 'auto';
  if (typeof value === 'string' && (ENGINE_CHOICES as readonly string[]).includes(value)) return value as EngineChoice;
  throw new CliError(`geoshard ${command}: --engine ${JSON.stringify(value)} is invalid: expected ${ENGINE_CHOICES.join(', ')}`, 2);
}
