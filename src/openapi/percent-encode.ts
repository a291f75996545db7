/** Percent-encoders for the parts of a request URL and the Cookie header. */

const SUB_DELIMS_LEFT_BY_ENCODE_URI_COMPONENT = /[!'()*]/g;
const NOT_RESERVED_OR_UNRESERVED = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+/g;
const NOT_COOKIE_OCTET = /[^\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]+/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Encodes everything but RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`), for path values. */
export function encodeUnreserved(value: string): string {
  return encodeComponent(value).replace(SUB_DELIMS_LEFT_BY_ENCODE_URI_COMPONENT, hexOf);
}

/** encodeURIComponent semantics, for query names and values; lone surrogates become U+FFFD instead of throwing. */
export function encodeComponent(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(LONE_SURROGATE, '\uFFFD'));
  }
}

/**
 * `allowReserved: true` (RFC 6570 reserved expansion): RFC 3986 reserved and unreserved
 * characters and existing percent-encoded triples pass unchanged; everything else is encoded.
 */
export function encodeAllowReserved(value: string): string {
  return value.replace(NOT_RESERVED_OR_UNRESERVED, encodeComponent);
}

/**
 * Encodes only what RFC 6265 forbids in a cookie value (controls, space, `"` `,` `;` `\`,
 * non-ASCII), so tokens with `=`, `/` or `+` reach servers that do not decode cookies intact.
 */
export function encodeCookieValue(value: string): string {
  return value.replace(NOT_COOKIE_OCTET, encodeComponent);
}

function hexOf(c: string): string {
  return `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
}
