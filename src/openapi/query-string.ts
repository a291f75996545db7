/**
 * Arazzo 1.1 `in: querystring`: one value that is the whole query string. Two forms, as the text's
 * examples show: form text (`a=1&b={$inputs.b}`), sent as written with the characters a query
 * cannot hold percent-encoded (its `&`, `=` and `%XX` escapes kept), and JSON (an object or array,
 * or text that is one), sent percent-encoded as the whole query (`?%7B%22a%22%3A1%7D`).
 */
import { stringifyJson } from '../expressions/stringify-json.js';

/** What a query may hold as is (RFC 3986 query: pchar / "/" / "?"), and `%` starting an escape. */
const UNSAFE_IN_QUERY = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/gu;

/** The query string (without `?`) a querystring parameter's evaluated value sends. */
export function queryStringOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return encodeURIComponent(stringifyJson(value) ?? '');
  const text = String(value);
  if (isJsonText(text)) return encodeURIComponent(text);
  return (text.startsWith('?') ? text.slice(1) : text).replace(UNSAFE_IN_QUERY, (c) => encodeURIComponent(c));
}

/** Whether a querystring's text is the JSON form: an object or array that parses. */
export function isJsonText(text: string): boolean {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A value embedded (`{$…}`) in the form text of a querystring: percent-encoded as a form value, so
 * that an input holding `&` or `=` stays one value. The JSON form embeds values as written.
 */
export function encodeFormValue(text: string): string {
  return encodeURIComponent(text);
}
