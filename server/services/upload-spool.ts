/**
 * Reading a multipart form without holding it in memory. Each file is streamed to a
 * temporary file while its size is counted, its SHA-256 computed and its first bytes
 * checked (PDF, JPEG or PNG): a file of another kind is refused on its first bytes, and
 * one over 5 MB as soon as it passes the limit. Text fields are checked as they come. A
 * form that is cut short, has no boundary, repeats or invents a field, or carries too
 * many parts is refused with a 4xx that says so, never a 500.
 *
 * The temporary files live in a folder of their own under the system's temporary folder
 * and are removed by `discard()`, which the routes call in a `finally`, so also when the
 * request fails or the client goes away.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import {
  DOCUMENT_FIELDS,
  MAX_DOCUMENT_BYTES,
  type DocumentField,
  type DocumentType,
} from '../../src/contracts/accounts.js';
import {
  cleanFileName,
  detectDocumentType,
  SIGNATURE_BYTES,
  tooLarge,
  unsupported,
} from './documents.js';
import { HttpError } from './errors.js';

/**
 * Largest text field, in bytes: the longest field (an e-mail, 254 characters) four bytes
 * a character, with room to spare. A longer value is refused as too long, never cut.
 */
export const MAX_FIELD_BYTES = 1024;
/** Longest field name read; a longer one cannot be a known field. */
const MAX_FIELD_NAME_BYTES = 100;
/** Header lines one part may carry: a browser sends two or three. */
const MAX_PART_HEADERS = 20;

/** A received file, checked, waiting in a temporary file to be written to the database. */
export interface SpooledFile {
  field: DocumentField;
  type: DocumentType;
  originalName: string;
  contentType: string;
  ext: string;
  size: number;
  /** Hex SHA-256 of the content, for the idempotency fingerprint. */
  sha256: string;
  path: string;
}

export interface FormRules {
  /** Text fields the form may carry, each at most once; any other is refused. */
  fields: readonly string[];
  /** Most files the form may carry. */
  maxFiles: number;
}

const PARSER_ERRORS: Record<string, () => HttpError> = {
  FST_PARTS_LIMIT: () => new HttpError(413, 'The form has too many parts.'),
  FST_FIELDS_LIMIT: () => new HttpError(413, 'The form has too many fields.'),
  FST_PROTO_VIOLATION: () =>
    new HttpError(400, 'Invalid request: the form has a field name that is not allowed.'),
  FST_INVALID_JSON_FIELD_ERROR: () =>
    new HttpError(400, 'Invalid request: a field declared as JSON is not valid JSON.'),
  FST_MP_PREMATURE_CLOSE: () =>
    new HttpError(400, 'The upload was interrupted before the form was complete.'),
};

/**
 * What an error of the multipart parser means to the client. Only errors raised while
 * parsing come here, so anything unrecognised is a malformed body (a missing boundary, a
 * body cut short, a broken part header), not a failure of the server.
 */
function parserError(error: unknown, maxFiles: number): HttpError {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_FILES_LIMIT') {
    const message = `At most ${maxFiles} files can be sent at once.`;
    return new HttpError(413, message, [{ field: 'file', message }], {
      code: 'TOO_MANY_FILES',
      params: { max: maxFiles },
    });
  }
  const known = typeof code === 'string' ? PARSER_ERRORS[code] : undefined;
  if (known) return known();
  return new HttpError(
    400,
    'Invalid request: the form data is incomplete or malformed. Please send it again.',
  );
}

/** A field name as it may be echoed back: short, printable. */
// eslint-disable-next-line no-control-regex
const shown = (name: string) => name.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 50);

const unknownField = (name: string) =>
  new HttpError(400, `Invalid request: ${shown(name)} is not a known field`, [
    { field: shown(name), message: 'is not a known field' },
  ]);

/** The text fields and the spooled files of one form; `discard()` removes the files. */
export class UploadForm {
  readonly fields: Record<string, string> = {};
  readonly files: SpooledFile[] = [];
  private folder: Promise<string> | null = null;

  /** The files as the idempotency fingerprint sees them: which field, which name, which bytes. */
  fingerprint(): { files: { field: string; name: string; size: number; sha256: string }[] } {
    return {
      files: this.files.map((f) => ({
        field: f.field,
        name: f.originalName,
        size: f.size,
        sha256: f.sha256,
      })),
    };
  }

  /** Removes the temporary files; safe to call more than once, and after a failure. */
  async discard(): Promise<void> {
    const folder = this.folder;
    this.folder = null;
    if (!folder) return;
    const path = await folder.catch(() => null);
    if (path) await rm(path, { recursive: true, force: true });
  }

  private tempFolder(): Promise<string> {
    this.folder ??= mkdtemp(join(tmpdir(), 'portal-upload-'));
    return this.folder;
  }

  /** Streams one file part to a temporary file, checking it on the way. */
  async spool(part: MultipartFile): Promise<SpooledFile> {
    const field = part.fieldname as DocumentField;
    const originalName = cleanFileName(part.filename);
    const path = join(await this.tempFolder(), `${this.files.length}.upload`);
    const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    // A failed write (a full disk) is kept here and thrown by the loop: an 'error' event
    // without a listener would stop the process. (Typed wider than null: the listener sets it.)
    let writeError = null as Error | null;
    out.on('error', (error) => {
      writeError ??= error;
    });
    const hash = createHash('sha256');
    let head = Buffer.alloc(0);
    let kind: ReturnType<typeof detectDocumentType> | undefined;
    let size = 0;
    try {
      for await (const chunk of readParts<Buffer>(part.file)) {
        size += chunk.length;
        if (size > MAX_DOCUMENT_BYTES) throw tooLarge(originalName);
        if (kind === undefined) {
          head = Buffer.concat([head, chunk.subarray(0, SIGNATURE_BYTES - head.length)]);
          if (head.length >= SIGNATURE_BYTES) {
            kind = detectDocumentType(head);
            // Refused on its first bytes: the rest of it is never read.
            if (!kind) throw unsupported(originalName);
          }
        }
        hash.update(chunk);
        if (writeError) throw writeError;
        if (!out.write(chunk)) await once(out, 'drain');
      }
      if (part.file.truncated) throw tooLarge(originalName);
      kind ??= detectDocumentType(head);
      if (!kind) throw unsupported(originalName);
      if (writeError) throw writeError;
      out.end();
      await once(out, 'finish');
    } catch (error) {
      out.destroy();
      throw error;
    }
    const file: SpooledFile = {
      field,
      type: DOCUMENT_FIELDS[field],
      originalName,
      contentType: kind.type,
      ext: kind.ext,
      size,
      sha256: hash.digest('hex'),
      path,
    };
    this.files.push(file);
    return file;
  }
}

/**
 * Iterates a stream of the parser, turning its errors into 4xx answers. Leaving the loop
 * early (a refusal) closes the stream, which stops the parser reading the body.
 */
async function* readParts<T>(source: AsyncIterable<T>, maxFiles = 0): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      let step: IteratorResult<T>;
      try {
        step = await iterator.next();
      } catch (error) {
        finished = true;
        throw parserError(error, maxFiles);
      }
      if (step.done) {
        finished = true;
        return;
      }
      yield step.value;
    }
  } finally {
    if (!finished) await iterator.return?.();
  }
}

/**
 * Reads a multipart form: text fields into `fields` (known ones only, each once, no NUL,
 * no longer than MAX_FIELD_BYTES), files into temporary files (document fields only, at
 * most `maxFiles`). On any refusal the files already received are removed.
 */
export async function readUploadForm(
  request: FastifyRequest,
  rules: FormRules,
): Promise<UploadForm> {
  const form = new UploadForm();
  const parts = request.parts({
    limits: {
      fileSize: MAX_DOCUMENT_BYTES,
      files: rules.maxFiles,
      // One more than allowed, so that the first field too many is named in the answer.
      fields: rules.fields.length + 1,
      parts: rules.fields.length + rules.maxFiles + 1,
      fieldSize: MAX_FIELD_BYTES,
      fieldNameSize: MAX_FIELD_NAME_BYTES,
      headerPairs: MAX_PART_HEADERS,
    },
  });
  try {
    for await (const part of readParts(parts, rules.maxFiles)) {
      if (part.type === 'file') {
        if (!(part.fieldname in DOCUMENT_FIELDS)) throw unknownField(part.fieldname);
        await form.spool(part);
        continue;
      }
      const name = part.fieldname;
      if (!rules.fields.includes(name) || part.fieldnameTruncated) throw unknownField(name);
      const value = typeof part.value === 'string' ? part.value : '';
      const refuse = (message: string, code?: string) =>
        new HttpError(400, `Invalid request: ${name} ${message}`, [
          { field: name, message, ...(code ? { code } : {}) },
        ]);
      if (Object.hasOwn(form.fields, name)) throw refuse('is sent more than once');
      if (part.valueTruncated) throw refuse('is too long', 'tooLong');
      // PostgreSQL cannot store a NUL in text; no real form has one.
      if (value.includes('\u0000')) throw refuse('contains a character that is not allowed');
      form.fields[name] = value;
    }
  } catch (error) {
    await form.discard();
    throw error;
  }
  return form;
}
