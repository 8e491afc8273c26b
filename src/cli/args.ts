/** Argument parsing for the CLI: node's parseArgs with errors that name the option and what is valid. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { validateBoundaryFile } from '../core/index.ts';
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

/** A decimal number as people write it: optional sign, digits with an optional fraction, an optional exponent (no 0x, 0b, 0o, Infinity or NaN). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * decimal reads a finite decimal number, or returns undefined when the text is
 * anything else (hexadecimal, binary, octal, Infinity, NaN, empty, or too large
 * to be finite).
 */
export function decimal(text: string): number | undefined {
  const t = text.trim();
  if (!DECIMAL.test(t)) return undefined;
  const v = Number(t);
  return Number.isFinite(v) ? v : undefined;
}

/** num reads a required option holding a finite decimal number, naming it in the error (exit 2). */
export function num(value: unknown, name: string, command: string): number {
  if (value === undefined) throw new CliError(`geoshard ${command}: --${name} is required\nRun "geoshard ${command} --help" for usage.`, 2);
  const v = typeof value === 'string' ? decimal(value) : undefined;
  if (v === undefined) {
    throw new CliError(`geoshard ${command}: --${name} ${JSON.stringify(value)} is not a number: expected a finite decimal number such as 37.7749 or -122.4194`, 2);
  }
  return v;
}

/**
 * degrees reads a required latitude (limit 90) or longitude (limit 180) in
 * degrees: a decimal number in [-limit, limit]. Not a number: exit 2; out of
 * range: exit 1, naming the option, the value and the range, as the API does.
 */
export function degrees(value: unknown, name: 'lat' | 'lng', command: string): number {
  const v = num(value, name, command);
  const limit = name === 'lat' ? 90 : 180;
  if (v < -limit || v > limit) {
    throw new CliError(`geoshard ${command}: --${name} ${String(value).trim()} is not a ${name === 'lat' ? 'latitude' : 'longitude'}: expected a number of degrees in [-${limit}, ${limit}]`, 1);
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

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * timestamp reads an optional ISO-8601 time option (--created-at): a full
 * date and time with seconds and a zone, such as 2026-11-30T00:00:00.000Z or
 * 2026-11-30T09:30:00+01:00, naming a day that exists. Returns undefined when
 * absent; throws a CliError (exit 2) naming the option and the value otherwise.
 */
export function timestamp(value: unknown, name: string, command: string): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  const m = ISO_TIME.exec(text);
  const bad = () =>
    new CliError(`geoshard ${command}: --${name} ${JSON.stringify(text)} is not an ISO-8601 time: expected a date and time with seconds and a zone, such as "2026-11-30T00:00:00.000Z" or "2026-11-30T09:30:00+01:00"`, 2);
  if (!m) throw bad();
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const daysInMonth = mo >= 1 && mo <= 12 ? new Date(Date.UTC(y, mo, 0)).getUTCDate() : 0;
  const zoneOk = m[8] === 'Z' || (Number(m[10]) <= 23 && Number(m[11]) <= 59);
  if (d < 1 || d > daysInMonth || h > 23 || mi > 59 || s > 59 || !zoneOk || Number.isNaN(Date.parse(text))) throw bad();
  return text;
}

/**
 * fieldValue checks one option that becomes a field of a boundary file with
 * the core's own rule for that field (validateBoundaryFile), so the CLI and
 * the validator never disagree, and throws a CliError (exit 2) naming the
 * option, the value and what is valid.
 */
export function fieldValue(value: string, field: 'index', option: string, command: string): string {
  const problem = validateBoundaryFile({ [field]: value }).find((e) => e.field === field);
  if (problem) throw new CliError(`geoshard ${command}: --${option} ${problem.message.slice(field.length + 2)}`, 2);
  return value;
}
