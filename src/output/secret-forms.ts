/**
 * The forms a secret takes on its way through a request and back from a server: percent-encoded
 * (a form field, a query or path value, with `+` or `%20` for a space, upper- or lower-case hex),
 * escaped inside a JSON string (`\"`, `\/`, `\u00e9`, Go's `\u003c`) and escaped as XML or HTML
 * text (`&quot;`, `&#39;`, `&apos;`). redact.ts masks every one of them wherever it masks the
 * secret itself. Base64 is not among them: only a Basic credential is base64, and
 * credentialParts() gives both its base64 and its password.
 */

/** Characters that no encoding below changes: a secret made only of these has one form. */
const UNCHANGED = /^[A-Za-z0-9._-]*$/;

/**
 * The forms of the secrets seen last: every printed line asks for them again, and working them out
 * costs several times what the masking does. A cache, not state: clearing it changes nothing but time.
 */
const recent = new Map<string, readonly string[]>();
const RECENT_MAX = 256;

/** `value` and every encoded form of it that differs from it (a short list: most tokens have one form). */
export function encodedForms(value: string): readonly string[] {
  if (UNCHANGED.test(value)) return [value];
  let forms = recent.get(value);
  if (forms === undefined) {
    forms = [...new Set([value, ...percentForms(value), ...jsonForms(value), ...markupForms(value)])];
    if (recent.size >= RECENT_MAX) recent.clear();
    recent.set(value, forms);
  }
  return forms;
}

function percentForms(value: string): string[] {
  let component: string;
  let uri: string;
  try {
    component = encodeURIComponent(value);
    uri = encodeURI(value);
  } catch {
    return []; // A lone surrogate has no percent-encoded form (requests send it as U+FFFD).
  }
  const unreserved = component.replace(/[!'()*]/g, hex);
  // application/x-www-form-urlencoded (URLSearchParams): `+` for a space, `~` encoded too.
  const form = new URLSearchParams({ v: value }).toString().slice(2);
  // Neither encodeURIComponent form has a literal `+`, and the form encoding has one only for a space;
  // encodeURI keeps a `+` of the value, so its form is taken as is.
  const spellings = [component, component.replace(/%20/g, '+'), unreserved, unreserved.replace(/%20/g, '+'), uri, form, form.replace(/\+/g, '%20')];
  const forms = new Set<string>();
  for (const spelling of spellings) {
    forms.add(spelling);
    forms.add(spelling.replace(/%[0-9A-F]{2}/g, (triple) => triple.toLowerCase()));
  }
  return [...forms];
}

function jsonForms(value: string): string[] {
  const quoted = JSON.stringify(value).slice(1, -1);
  const forms = new Set<string>();
  // Python's ensure_ascii, Go's HTML-safe escaping, PHP's escaped slashes, and their mixtures.
  for (const ascii of [quoted, quoted.replace(/[\u0080-\uffff]/g, unicodeEscape)]) {
    for (const safe of [ascii, ascii.replace(/[<>&\u2028\u2029]/g, unicodeEscape)]) {
      forms.add(safe);
      forms.add(safe.replace(/\//g, '\\/'));
    }
  }
  return [...forms];
}

function markupForms(value: string): string[] {
  const text = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const forms = new Set([text]);
  for (const [quot, apos] of [['&quot;', '&#39;'], ['&quot;', '&apos;'], ['&quot;', '&#x27;'], ['&#34;', '&#39;']] as const) {
    forms.add(text.replace(/"/g, quot));
    forms.add(text.replace(/"/g, quot).replace(/'/g, apos));
  }
  return [...forms];
}

function hex(c: string): string {
  return `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
}

function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
