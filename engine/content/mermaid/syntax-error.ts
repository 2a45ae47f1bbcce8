/** Mermaid source Quire cannot read; the message names the statement, for the note under the code. */
export class MermaidSyntaxError extends Error {
  constructor(message: string, statement?: string) {
    super(statement === undefined ? message : `${message}: "${statement.length > 60 ? `${statement.slice(0, 57)}…` : statement}"`);
  }
}
