/** Turning an HttpBody into the bytes and content type that go on the wire. */

import { randomBytes } from 'node:crypto';
import type { HttpBody, MultipartPart } from './types.js';

export interface WireBody {
  contentType: string;
  data: Buffer | string;
}

/** The wire form of a request body; multipart parts get a fresh random boundary. */
export function wireBody(body: HttpBody): WireBody {
  if (body.kind === 'bytes') return { contentType: body.contentType, data: body.data };
  const boundary = `----tool-${randomBytes(12).toString('hex')}`;
  return { contentType: `multipart/form-data; boundary=${boundary}`, data: encodeMultipart(body.parts, boundary) };
}

/** multipart/form-data (RFC 7578) with names escaped the way browsers escape them. */
export function encodeMultipart(parts: MultipartPart[], boundary: string): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeQuoted(part.name)}"`;
    if (part.filename !== undefined) head += `; filename="${escapeQuoted(part.filename)}"`;
    const contentType = part.contentType ?? (part.filename !== undefined && Buffer.isBuffer(part.value) ? 'application/octet-stream' : undefined);
    if (contentType !== undefined) head += `\r\nContent-Type: ${contentType}`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`), Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value), CRLF);
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const CRLF = Buffer.from('\r\n');

// WHATWG's form-data encoding: quote, CR and LF are percent-escaped inside quoted names.
function escapeQuoted(value: string): string {
  return value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
