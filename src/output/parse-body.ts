/** Decoding a body by its content type: for the pipeline's responses, and for what tool prints (redaction, reports). */

const TEXT_TYPES = new Set([
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/yaml',
  'application/x-yaml',
  'application/javascript',
]);
const UTF8_NAMES = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);

/** Body bytes as a JSON value, a string or a Buffer (undefined when empty); invalid JSON comes back as its text. */
export function parseBody(contentType: string | undefined, bytes: Buffer): unknown {
  if (bytes.length === 0) return undefined;
  const { mime, charset } = splitContentType(contentType);
  if (mime === 'application/json' || mime.endsWith('+json')) {
    const text = decodeText(bytes, charset);
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (mime.startsWith('text/') || mime.endsWith('+xml') || TEXT_TYPES.has(mime)) return decodeText(bytes, charset);
  return bytes;
}

/** The media type's essence (lower-cased, parameters dropped) and its charset parameter. */
export function splitContentType(contentType: string | undefined): { mime: string; charset: string | undefined } {
  if (contentType === undefined) return { mime: '', charset: undefined };
  const semicolon = contentType.indexOf(';');
  if (semicolon === -1) return { mime: contentType.trim().toLowerCase(), charset: undefined };
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
  return { mime: contentType.slice(0, semicolon).trim().toLowerCase(), charset };
}

function decodeText(bytes: Buffer, charset: string | undefined): string {
  if (charset !== undefined && !UTF8_NAMES.has(charset)) {
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      // An unknown charset label: UTF-8 is the best guess for a modern API.
    }
  }
  const text = bytes.toString('utf8');
  // A UTF-8 byte order mark would make JSON.parse fail.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
