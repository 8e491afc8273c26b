/** The shape every CLI command has. */
export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

export interface Command {
  name: string;
  summary: string;
  /** Full help text, printed by --help. */
  usage: string;
  /** Runs the command; returns the exit code. Throws CliError for user errors. */
  run: (argv: string[], io: Io) => number | Promise<number>;
}
