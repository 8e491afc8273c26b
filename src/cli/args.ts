/** Argument parsing for the CLI: node's parseArgs with errors that name the option and what is valid. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './io.ts';

export type Options = NonNullable<ParseArgsConfig['options']>;

/** parse parses argv for a command and turns parseArgs' errors into usage errors (exit 2). */
export function parse<T extends Options>(argv: string[], options: T, command: string, allowPositionals = false) {
  // parseArgs reads "-122.4" as an option; glue negative numbers to the option before them.
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = argv[i + 1];
    if (/^--[^=]+$/.test(a) && next !== undefined && /^-(\d|\.\d)/.test(next) && options[a.slice(2)]?.type === 'string') {
      args.push(`${a}=${next}`);
      i++;
    } else args.push(a);
  }
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals, strict: true });
  } catch (e) {
    throw new CliError(`geoshard ${command}: ${(e as Error).message.replace(/\. To specify a positional argument.*$/s, '')}\nRun "geoshard ${command} --help" for usage.`, 2);
  }
}

/** num reads a required numeric option, naming it in the error. */
export function num(value: unknown, name: string, command: string): number {
  if (value === undefined) throw new CliError(`geoshard ${command}: --${name} is required\nRun "geoshard ${command} --help" for usage.`, 2);
  const v = Number(value);
  if (typeof value !== 'string' || value.trim() === '' || !Number.isFinite(v)) {
    throw new CliError(`geoshard ${command}: --${name} ${JSON.stringify(value)} is not a number`, 2);
  }
  return v;
}

/** int reads an integer option in [min, max], with a default. */
export function int(value: unknown, name: string, command: string, dflt: number, min: number, max: number): number {
  if (value === undefined) return dflt;
  const v = Number(value);
  if (typeof value !== 'string' || !/^-?\d+$/.test(value.trim()) || v < min || v > max) {
    throw new CliError(`geoshard ${command}: --${name} ${JSON.stringify(value)} is invalid: expected an integer in [${min}, ${max}]`, 2);
  }
  return v;
}

/** str reads a required string option, naming it in the error. */
export function str(value: unknown, name: string, command: string): string {
  if (typeof value !== 'string' || value === '') throw new CliError(`geoshard ${command}: --${name} is required\nRun "geoshard ${command} --help" for usage.`, 2);
  return value;
}
