import { concatBytes } from '../platform/bytes.ts';

/**
 * A multipart/form-data body read as it streams, with every limit checked before the next
 * bytes are read: the number of parts, the size of each text field and of each file, the
 * size of a part's headers and of the whole body (issue 20, finding 11: `Request.formData()`
 * took 100,000 parts, since it knows no limits and reads the whole body first).
 *
 * Hand-written rather than a library: none is in the project, `busboy` needs Node's streams,
 * and the Worker needs only the subset browsers send (RFC 7578: `name`, `filename`,
 * `content-type`; no nested multipart, no transfer encodings).
 */

export interface MultipartLimits {
  /** Parts of any kind, text fields and files together. */
  maxParts: number;
  /** Bytes of the whole body as sent. */
  maxBodyBytes: number;
  /** Bytes of one part's header block. */
  maxHeaderBytes: number;
}

export interface MultipartPart {
  name: string;
  /** Present (maybe '') when the part is a file. */
  filename?: string;
  contentType: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** Why a body was refused, for the caller to word: which limit, and the part's name where known. */
export type MultipartProblem =
  | { kind: 'too_many_parts' }
  | { kind: 'part_too_large'; name: string; filename?: string; index: number }
  | { kind: 'body_too_large' }
  /** A part's header block runs past `maxHeaderBytes`. */
  | { kind: 'headers_too_large' }
  | { kind: 'malformed'; reason: string }
  /** The body stopped arriving before its end (the sender went away mid-upload): the sender's side, not ours. */
  | { kind: 'interrupted' };

export class MultipartRefused extends Error {
  readonly problem: MultipartProblem;
  constructor(problem: MultipartProblem) {
    super(problem.kind);
    this.name = 'MultipartRefused';
    this.problem = problem;
  }
}

/**
 * Called with each part's headers before its body is read: answers the most bytes that part
 * may have (a photo more than a text field), or throws to refuse it then (say, a fifth photo).
 */
export type PartLimit = (part: { name: string; filename?: string; index: number }) => number;

const CRLF = new Uint8Array([13, 10]);
const HEADERS_END = new Uint8Array([13, 10, 13, 10]);
const decoder = new TextDecoder();

/** The boundary of a `multipart/form-data; boundary=…` content type (quoted or not), or undefined. */
export function multipartBoundary(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/**
 * Reads every part of `body`, refusing (MultipartRefused) as soon as a limit is passed. The
 * reader is handed back unread past that point: the caller drains it (functions/platform/drain.ts).
 */
export async function readMultipart(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  boundary: string,
  limits: MultipartLimits,
  partLimit: PartLimit,
  /** Bytes read so far, kept up to date for a caller that drains the rest after a refusal. */
  progress = { bytesRead: 0 },
): Promise<MultipartPart[]> {
  const encoder = new TextEncoder();
  // The first delimiter may open the body without a line break before it; later ones follow one.
  const firstDelimiter = encoder.encode(`--${boundary}`);
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  const parts: MultipartPart[] = [];
  let buffer = new Uint8Array(0);
  let ended = false;

  /** Appends the next chunk; false at the end of the body. */
  const more = async (): Promise<boolean> => {
    if (ended) return false;
    const { done, value } = await reader.read().catch(() => {
      throw new MultipartRefused({ kind: 'interrupted' });
    });
    if (done) {
      ended = true;
      return false;
    }
    progress.bytesRead += value.byteLength;
    if (progress.bytesRead > limits.maxBodyBytes) throw new MultipartRefused({ kind: 'body_too_large' });
    const joined = new Uint8Array(buffer.byteLength + value.byteLength);
    joined.set(buffer);
    joined.set(value, buffer.byteLength);
    buffer = joined;
    return true;
  };
  const malformed = (reason: string) => new MultipartRefused({ kind: 'malformed', reason });

  // The preamble (before the first delimiter) is ignored, but counts towards the body.
  let at: number;
  for (;;) {
    at = indexOf(buffer, firstDelimiter);
    if (at >= 0) break;
    buffer = buffer.slice(Math.max(0, buffer.byteLength - (firstDelimiter.byteLength - 1)));
    if (!(await more())) throw malformed('no boundary line');
  }
  buffer = buffer.slice(at + firstDelimiter.byteLength);

  for (;;) {
    // After a delimiter: `--` ends the body; otherwise a line break, then the part's headers.
    // (RFC 2046 allows spaces before the line break; no browser writes them, so none are taken.)
    while (buffer.byteLength < 2) if (!(await more())) throw malformed('the body ends inside a boundary line');
    if (buffer[0] === 45 && buffer[1] === 45) break;
    if (!startsWithBytes(buffer, CRLF)) throw malformed('no line break after a boundary');
    buffer = buffer.slice(CRLF.byteLength);
    let headersEnd: number;
    for (;;) {
      headersEnd = indexOf(buffer, HEADERS_END);
      if (headersEnd >= 0) break;
      if (buffer.byteLength > limits.maxHeaderBytes) throw new MultipartRefused({ kind: 'headers_too_large' });
      if (!(await more())) throw malformed('the body ends inside a part’s headers');
    }
    if (headersEnd > limits.maxHeaderBytes) throw new MultipartRefused({ kind: 'headers_too_large' });
    const headerText = decoder.decode(buffer.subarray(0, headersEnd));
    const header = parseHeaders(headerText);
    if (!header) throw malformed('a part without a form-data name');
    buffer = buffer.slice(headersEnd + HEADERS_END.byteLength);

    if (parts.length + 1 > limits.maxParts) throw new MultipartRefused({ kind: 'too_many_parts' });
    const index = parts.length;
    const max = partLimit({ name: header.name, filename: header.filename, index });
    const tooLarge = () => new MultipartRefused({ kind: 'part_too_large', name: header.name, filename: header.filename, index });

    // The body runs to the next delimiter; bytes that cannot be its start are moved out as they come.
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const end = indexOf(buffer, delimiter);
      if (end >= 0) {
        size += end;
        if (size > max) throw tooLarge();
        chunks.push(buffer.slice(0, end));
        buffer = buffer.slice(end + delimiter.byteLength);
        break;
      }
      const safe = buffer.byteLength - (delimiter.byteLength - 1);
      if (safe > 0) {
        size += safe;
        if (size > max) throw tooLarge();
        chunks.push(buffer.slice(0, safe));
        buffer = buffer.slice(safe);
      }
      if (!(await more())) throw malformed('the body ends inside a part');
    }
    parts.push({
      name: header.name,
      filename: header.filename,
      contentType: header.contentType,
      bytes: concatBytes(chunks, size),
    });
  }
  return parts;
}

/** `name`, `filename` and the content type of a part's headers; undefined without a form-data name. */
function parseHeaders(text: string) {
  let disposition: string | undefined;
  let contentType = '';
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'content-disposition') disposition = value;
    else if (key === 'content-type') contentType = value.split(';')[0]!.trim().toLowerCase();
  }
  if (!disposition || !/^form-data\b/i.test(disposition)) return undefined;
  const param = (key: string) => {
    const match = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i').exec(disposition!);
    if (!match) return undefined;
    return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2]!;
  };
  const name = param('name');
  if (name === undefined) return undefined;
  return { name, filename: param('filename'), contentType };
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  const last = haystack.byteLength - needle.byteLength;
  for (let i = haystack.indexOf(first!, from); i >= 0 && i <= last; i = haystack.indexOf(first!, i + 1)) {
    if (startsWithBytes(haystack, needle, i)) return i;
  }
  return -1;
}

function startsWithBytes(bytes: Uint8Array, prefix: Uint8Array, at = 0): boolean {
  if (bytes.byteLength < at + prefix.byteLength) return false;
  for (let j = 0; j < prefix.byteLength; j++) if (bytes[at + j] !== prefix[j]) return false;
  return true;
}
