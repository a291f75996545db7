/**
 * Text in XML 1.0 documents (the JUnit files): what XML cannot carry removed, the rest escaped.
 * Pure: text in, text out.
 */

/** Characters XML 1.0 cannot carry at all (C0 but tab, line feed and carriage return; lone surrogates; U+FFFE, U+FFFF). */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Element text: `&`, `<` and `>` escaped. */
export function xmlText(value: string): string {
  return value.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value (in double quotes): also quotes, and the line breaks and tabs that attribute normalisation would turn into spaces. */
export function xmlAttr(value: string): string {
  return xmlText(value).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
