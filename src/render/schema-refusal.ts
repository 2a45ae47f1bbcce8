/**
 * Request validation by zod schemas — the same schemas the OpenAPI document is generated from —
 * answered the way docs/api.md "Errors" wants: one 400 `invalid_request` naming the key, with a
 * `reason`. An unknown top-level field is named first; otherwise the first issue in field order.
 */
import type { z } from 'zod';
import { invalidRequest, ServiceError } from '../service-error.js';

type Issue = z.core.$ZodIssue;
type Path = PropertyKey[];

/** `value` as the schema outputs it, or a ServiceError for its first issue. */
export function validated<S extends z.ZodType>(schema: S, value: unknown, reasons: FieldReasons | string = {}): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw refusalFor(firstIssue(flatten(result.error.issues, [])), value, reasons);
}

/**
 * The `reason` for a wrong value under a top-level field (`invalid_field` when not named), or
 * one reason for every wrong value.
 */
export type FieldReasons = Readonly<Record<string, string>>;

/**
 * For a schema check that refuses with an existing ServiceError (its message and reason kept):
 * runs `check`, turning a thrown ServiceError into an issue of `ctx`.
 */
export function refuseInto<T>(ctx: z.RefinementCtx, check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    ctx.addIssue({ code: 'custom', message: error.message, params: { reason: error.details.reason } });
    return undefined;
  }
}

/** Issues with their full paths; a union is replaced by the issues of the branch whose type the value had. */
function flatten(issues: readonly Issue[], base: Path): { issue: Issue; path: Path }[] {
  return issues.flatMap((issue) => {
    const path = [...base, ...issue.path];
    if (issue.code === 'invalid_union') {
      const matched = issue.errors.find((branch) => !branch.every(isTypeMismatch));
      if (matched) return flatten(matched, path);
    }
    return [{ issue, path }];
  });
}

function isTypeMismatch(issue: Issue): boolean {
  return issue.path.length === 0 && (issue.code === 'invalid_type' || issue.code === 'invalid_value');
}

function firstIssue(issues: { issue: Issue; path: Path }[]): { issue: Issue; path: Path } {
  return issues.find(({ issue, path }) => issue.code === 'unrecognized_keys' && path.length === 0) ?? issues[0]!;
}

function refusalFor({ issue, path }: { issue: Issue; path: Path }, value: unknown, reasons: FieldReasons | string): ServiceError {
  const name = path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return invalidRequest('unknown_field', `Unknown field "${name ? `${name}.` : ''}${issue.keys[0]}".`);
  }
  if (issue.code === 'invalid_type' && isMissing(value, path)) {
    return invalidRequest('missing_field', `The field "${name}" is required.`);
  }
  const reason =
    (issue.code === 'custom' && (issue.params?.reason as string | undefined)) || (typeof reasons === 'string' ? reasons : reasons[String(path[0])]);
  return invalidRequest(reason ?? 'invalid_field', issue.message);
}

function isMissing(value: unknown, path: Path): boolean {
  let here = value;
  for (const key of path) {
    if (typeof here !== 'object' || here === null || !Object.hasOwn(here, key)) return true;
    here = (here as Record<PropertyKey, unknown>)[key];
  }
  return here === undefined;
}
