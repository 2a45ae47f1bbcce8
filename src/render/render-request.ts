/**
 * The body of POST /v1/render (docs/api.md "The request"): a strict JSON object, or raw Markdown
 * for any other content type. The JSON body is validated by RENDER_BODY_SCHEMA, from which the
 * OpenAPI document and the MCP tool's input schema are generated. Every refusal here costs nothing.
 */
import { z } from 'zod';
import { DEFAULT_FEATURES, FEATURE_NAMES, LANGUAGE_TAG, MAX_LANGUAGE_LENGTH, resolveFeatures, THEMES, type Features, type ResourceMode } from '@quire/engine';
import { parseJsonBody } from '../admission/json-body.js';
import { checkUploadUrl } from '../net/upload-url.js';
import { SEAL_SCHEMA, type SealRequest } from '../seal/seal-request.js';
import { emptyDocument, invalidRequest } from '../service-error.js';
import { DEFAULT_FILENAME, normalizeFilename } from './filename.js';
import { refuseInto, validated } from './schema-refusal.js';

export type Output = 'pdf' | 'json' | 'upload';

export interface RenderRequest {
  markdown: string;
  features: Features;
  output: Output;
  uploadUrl: string | undefined;
  filename: string;
  seal: SealRequest | undefined;
  resources: ResourceMode;
  language: string | undefined;
}

const OUTPUTS = ['pdf', 'json', 'upload'] as const;
const RESOURCE_MODES = ['strict', 'lenient'] as const;

const FEATURE_DESCRIPTIONS: Readonly<Record<keyof Features, string>> = {
  mermaid: 'Fenced mermaid blocks are drawn as diagrams.',
  mermaid_appendix: 'Each diagram is also placed on its own page after the document, linked from where it was written.',
  highlight: 'Colours fenced code by language.',
  images: 'Draws referenced resources; when off each is left out.',
  smart_typography: 'Straight quotes, dashes and ellipses become typographic forms.',
  tasks: 'Task-list items are drawn as checkboxes.',
  emoji: ':shortcode: names are replaced by emoji.',
  math: 'Typesets LaTeX-notation mathematics.',
  barcode: 'Draws barcode and QR-code blocks.',
  svg: 'Vector resources are drawn as vectors; when off they are left out.',
  html_blocks: 'HTML blocks and inline HTML are rendered, CSS applying within its own block.',
  bare_autolinks: 'Bare URLs and email addresses become links.',
  indented_code: 'Four-space-indented blocks are code.',
  embed_source: 'Attaches the Markdown to the PDF as document.md.',
  tagged: 'Tags the PDF for screen readers (PDF/UA structure).',
  hyphenation: 'Hyphenates justified text when a document language is known.',
  theme: 'Page and text colours; a theme in the front matter overrides it.',
};

/** docs/api.md "Features", one switch per engine feature, each with its default. */
const FEATURES_SCHEMA = z
  .strictObject(
    Object.fromEntries(
      FEATURE_NAMES.map((name) => {
        const invalid = `Invalid "features.${name}": ${name === 'theme' ? 'theme must be "light" or "dark"' : `feature "${name}" must be true or false`}.`;
        const schema = name === 'theme' ? z.enum(THEMES, { error: invalid }) : z.boolean({ error: invalid });
        return [name, schema.optional().describe(`${FEATURE_DESCRIPTIONS[name]} Default: ${DEFAULT_FEATURES[name]}.`)];
      }),
    ) as Record<keyof Features, z.ZodOptional<z.ZodBoolean>>,
    { error: '"features" must be an object.' },
  )
  .describe('Converter switches; every boolean is on unless sent as false, except mermaid_appendix and embed_source.');

const languageError = (message: string) => ({ error: `Invalid "language": ${message}.` });

/** The fields of a JSON render body, each checked for its type and range (docs/api.md "The request"). */
export const RENDER_FIELDS = {
  markdown: z.string({ error: '"markdown" must be a string.' }).describe('Markdown source. An empty string is 400 empty_document.'),
  features: FEATURES_SCHEMA.optional(),
  output: z
    .enum(OUTPUTS, { error: `"output" must be one of ${OUTPUTS.map((v) => `"${v}"`).join(', ')}.` })
    .optional()
    .describe('Delivery: the PDF as the body, Base64 inside JSON, or one PUT to upload_url. Default: pdf.'),
  upload_url: z
    .string({ error: '"upload_url" must be a string.' })
    .meta({ format: 'uri' })
    .optional()
    .describe('Required iff output is upload: an absolute https URL on a public host. Never stored, logged or repeated.'),
  filename: z
    .string({ error: '"filename" must be a string.' })
    .optional()
    .describe('Name offered for the streamed file; the stem is cut to 80 characters and .pdf enforced. Default: document.pdf.'),
  sign: SEAL_SCHEMA.optional().describe("Seal the PDF with the account's own certificate; false or omitted for none."),
  resources: z
    .enum(RESOURCE_MODES, { error: `"resources" must be one of ${RESOURCE_MODES.map((v) => `"${v}"`).join(', ')}.` })
    .optional()
    .describe('strict refuses the document when a resource cannot be loaded; lenient draws placeholders. Default: strict.'),
  language: z
    .string(languageError('language must be a non-empty string'))
    .min(1, languageError('language must be a non-empty string'))
    .max(MAX_LANGUAGE_LENGTH, languageError(`language must be at most ${MAX_LANGUAGE_LENGTH} characters`))
    .regex(LANGUAGE_TAG, languageError('language must be a BCP 47 tag such as "en" or "de-CH"'))
    .optional()
    .describe("BCP 47 tag for hyphenation and shaping. Default: the front matter's language, if any."),
};

/** A JSON render body; its output is the RenderRequest. */
export const RENDER_BODY_SCHEMA = z.strictObject(RENDER_FIELDS).transform((body, ctx): RenderRequest => {
  const output = body.output ?? 'pdf';
  const uploadUrl = refuseInto(ctx, () => uploadDestination(output, body.upload_url));
  return {
    markdown: body.markdown,
    features: resolveFeatures(body.features),
    output,
    uploadUrl,
    filename: body.filename === undefined ? DEFAULT_FILENAME : normalizeFilename(body.filename),
    seal: body.sign || undefined,
    resources: body.resources ?? 'strict',
    language: body.language,
  };
});

/** Top-level fields whose wrong values have a reason of their own. */
const FIELD_REASONS = { sign: 'invalid_seal', upload_url: 'invalid_upload_url' };

/**
 * A render body as a front-end hands it over: the bytes sent with their Content-Type, or a JSON
 * value already read within the account's ceiling (an MCP tool call's arguments).
 */
export type RenderBody = { bytes: Uint8Array; contentType: string | undefined } | { json: unknown };

export async function parseRenderRequest(body: RenderBody): Promise<RenderRequest> {
  if ('json' in body) return fromJson(body.json);
  if (isJson(body.contentType)) return fromJson(await parseJsonBody(body.bytes));
  return defaults(nonEmpty(decodeUtf8(body.bytes)));
}

/** `application/json`, with or without parameters; every other type means raw Markdown. */
function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

function defaults(markdown: string): RenderRequest {
  return {
    markdown,
    features: resolveFeatures(undefined),
    output: 'pdf',
    uploadUrl: undefined,
    filename: DEFAULT_FILENAME,
    seal: undefined,
    resources: 'strict',
    language: undefined,
  };
}

function fromJson(parsed: unknown): RenderRequest {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidRequest('invalid_json', 'The body must be a JSON object.');
  }
  const request = validated(RENDER_BODY_SCHEMA, parsed, FIELD_REASONS);
  nonEmpty(request.markdown);
  return request;
}

/** `upload_url` goes with upload output and only with it, and must be sendable as written. */
function uploadDestination(output: Output, url: string | undefined): string | undefined {
  if (output === 'upload' && url === undefined) {
    throw invalidRequest('invalid_upload_url', '"upload_url" is required when "output" is "upload".');
  }
  if (output !== 'upload' && url !== undefined) {
    throw invalidRequest('invalid_upload_url', '"upload_url" is allowed only when "output" is "upload".');
  }
  return url === undefined ? undefined : checkUploadUrl(url);
}

function nonEmpty(markdown: string): string {
  if (markdown.length === 0) throw emptyDocument();
  return markdown;
}

function decodeUtf8(body: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw invalidRequest('invalid_encoding', 'The body is not valid UTF-8.');
  }
}
