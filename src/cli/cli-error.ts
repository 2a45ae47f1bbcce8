/** A problem to report as one line on stderr, with the exit code to leave with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

/**
 * What the user asked for instead of the command's work (`--help`, `--version`): written to
 * standard output by main, which then leaves with code 0. Thrown, so that a command stops
 * wherever it finds the flag without ending the process under pending writes.
 */
export class CliAnswer extends Error {
  constructor(readonly text: string) {
    super('answered');
  }
}
