/** Argument parsing for the CLI: node's parseArgs with errors that name the option and what is valid. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { validateBoundaryFile, parseRadius, type Radius } from '../core/index.ts';
import { CliError } from './io.ts';

export type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The old command-line forms a command still accepts for one release (issue 32's convention:
 * boundary files are named with --boundaries FILE, a second one with --candidate FILE):
 * - positional: flags that leading positional arguments stand for, in order; used only when
 *   more than `keep` positionals are given (split keeps its SHARD, merge its two names);
 * - renamed: old flag → new flag (migrate's --to/--from).
 * Each use prints a notice on stderr naming the new form.
 */
export interface Legacy {
  positional?: string[];
  keep?: number;
  renamed?: Record<string, string>;
}

/** Where notices (deprecations) go: main() points it at the command's stderr. */
let noticeSink: (text: string) => void = (t) => void process.stderr.write(t);
export function setNoticeSink(sink: (text: string) => void): void {
  noticeSink = sink;
}

/**
 * The flags a command's positional arguments most likely meant, in order, for the hint a
 * stray positional gets (`geoshard route 37.77 -122.42` → `--lat 37.77 --lng -122.42`).
 */
const POSITIONAL_HINTS: Record<string, string[]> = {
  route: ['lat', 'lng'],
  cover: ['lat', 'lng', 'radius'],
  bench: ['lat', 'lng', 'radius'],
};

/** What one parse() call was given: read by describeOptions() for help, the reference and tests. */
export interface ParseSpec {
  command: string;
  options: Options;
  allowPositionals: boolean;
  legacy?: Legacy;
}

/** Thrown by parse() while describing: carries the command's parse definition instead of parsing. */
export class Described extends Error {
  constructor(readonly spec: ParseSpec) {
    super('described');
  }
}

let describing = false;

/**
 * describeOptions returns the options a command's run() hands to parse(): the single
 * definition its parsing, the generated reference and the convention test all read. Every
 * command parses its arguments before doing anything else, so run() stops at parse().
 */
export async function describeOptions(run: (argv: string[], io: { out: (t: string) => void; err: (t: string) => void }) => unknown): Promise<ParseSpec> {
  describing = true;
  try {
    await run([], { out: () => {}, err: () => {} });
  } catch (e) {
    if (e instanceof Described) return e.spec;
    throw e;
  } finally {
    describing = false;
  }
  throw new Error('the command ran without calling parse()');
}

const NEGATIVE = /^-(\d|\.\d)/;
const STRAY = '\u0000';

/** parse parses argv for a command and turns parseArgs' errors into usage errors (exit 2). */
export function parse<T extends Options>(argv: string[], options: T, command: string, allowPositionals = false, legacy?: Legacy) {
  if (describing) throw new Described({ command, options, allowPositionals, legacy });
  const usage = `\nRun "geoshard ${command} --help" for usage.`;
  // parseArgs reads "-122.4" as an option; glue negative numbers to the option before them,
  // and mark any other negative number as a (stray) positional.
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    const next = argv[i + 1];
    const renamed = legacy?.renamed && /^--[^=]+/.exec(a)?.[0].slice(2);
    if (renamed && legacy?.renamed?.[renamed]) {
      const to = legacy.renamed[renamed];
      noticeSink(`geoshard ${command}: --${renamed} is deprecated and will be removed in the next release: use --${to}\n`);
      a = `--${to}${a.slice(2 + renamed.length)}`;
    }
    if (/^--[^=]+$/.test(a) && next !== undefined && NEGATIVE.test(next) && options[a.slice(2)]?.type === 'string') {
      args.push(`${a}=${next}`);
      i++;
    } else if (NEGATIVE.test(a)) args.push(STRAY + a);
    else args.push(a);
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new CliError(`geoshard ${command}: ${(e as Error).message.replace(/\. To specify a positional argument.*$/s, '')}${usage}`, 2);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  let positionals = parsed.positionals.map((p) => (p.startsWith(STRAY) ? p.slice(1) : p));
  if (legacy?.positional && positionals.length > (legacy.keep ?? 0)) {
    const n = Math.min(legacy.positional.length, positionals.length - (legacy.keep ?? 0));
    const used = positionals.slice(0, n);
    positionals = positionals.slice(n);
    used.forEach((value, k) => {
      const flag = legacy.positional![k];
      if (values[flag] !== undefined) throw new CliError(`geoshard ${command}: ${JSON.stringify(value)} and --${flag} both name the ${flag} file: give --${flag} FILE only${usage}`, 2);
      values[flag] = value;
    });
    noticeSink(`geoshard ${command}: positional files are deprecated and will be removed in the next release: use ${used.map((v, k) => `--${legacy.positional![k]} ${v}`).join(' ')}\n`);
  }
  if (!allowPositionals && positionals.length > 0) throw new CliError(`geoshard ${command}: unexpected argument ${JSON.stringify(positionals[0])}: options are named${hint(command, positionals, options)}${usage}`, 2);
  return { values, positionals } as unknown as ReturnType<typeof parseArgs<{ args: string[]; options: T & { help: { type: 'boolean'; short: 'h' } }; allowPositionals: true; strict: true }>>;
}

/** hint names the flags stray positionals most likely meant: "; did you mean --lat 37.77 --lng -122.42?" */
function hint(command: string, positionals: string[], options: Options): string {
  const byKind = (p: string) => (/\.json$/i.test(p) && options.boundaries ? 'boundaries' : /\.csv$/i.test(p) && options.cells ? 'cells' : undefined);
  const order = (POSITIONAL_HINTS[command] ?? []).filter((f) => options[f]);
  const flags: string[] = [];
  let k = 0;
  for (const p of positionals) {
    const f = byKind(p) ?? (decimal(p) !== undefined || /^\d/.test(p) ? order[k++] : undefined);
    if (!f) return '';
    flags.push(`--${f} ${p}`);
  }
  return `; did you mean: geoshard ${command} ${flags.join(' ')}`;
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
 * degrees: a decimal number in [-limit, limit]. Not a number or out of range: exit 2
 * (the command line alone is wrong: a usage error), naming the option, the value and the
 * range, as the API does.
 */
export function degrees(value: unknown, name: 'lat' | 'lng', command: string): number {
  const v = num(value, name, command);
  const limit = name === 'lat' ? 90 : 180;
  if (v < -limit || v > limit) {
    throw new CliError(`geoshard ${command}: --${name} ${String(value).trim()} is not a ${name === 'lat' ? 'latitude' : 'longitude'}: expected a number of degrees in [-${limit}, ${limit}]`, 2);
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

/** radius reads a required radius option (15mi, 25km; a bare number is miles) with the core's parseRadius: not a radius is a usage error (exit 2). */
export function radius(value: unknown, name: string, command: string): Radius {
  const text = str(value, name, command);
  try {
    return parseRadius(text, 'mi', `--${name}`);
  } catch (e) {
    if (e instanceof RangeError) throw new CliError(`geoshard ${command}: ${e.message}`, 2);
    throw e;
  }
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
