/** A known secret is masked in every encoding a request or a server gives it (issue 23, item 12). */
import { describe, expect, it } from '@jest/globals';
import { createLiveSecrets } from '../../../src/observe/live-secrets.js';
import { redactRequest, redactText, valueMasker } from '../../../src/output/redact.js';
import { encodedForms } from '../../../src/output/secret-forms.js';

const SECRET = `S3cret p@ss!"<&>'/é~`;

describe('encodedForms', () => {
  it('gives a token of letters, digits and -._ as its one form', () => {
    expect(encodedForms('tok-A1_b.c')).toEqual(['tok-A1_b.c']);
  });

  it.each([
    ['a form field (URLSearchParams, + for a space)', new URLSearchParams({ v: SECRET }).toString().slice(2)],
    ['a form field with %20 for a space', new URLSearchParams({ v: SECRET }).toString().slice(2).replace(/\+/g, '%20')],
    ['a query value (encodeURIComponent)', encodeURIComponent(SECRET)],
    ['a query value with + for a space', encodeURIComponent(SECRET).replace(/%20/g, '+')],
    ['a path value (RFC 3986 unreserved only)', encodeURIComponent(SECRET).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)],
    ['lower-case percent triples', encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (t) => t.toLowerCase())],
    ['a JSON string', JSON.stringify(SECRET).slice(1, -1)],
    ['a JSON string with escaped slashes and non-ASCII (PHP)', 'S3cret p@ss!\\"<&>\'\\/\\u00e9~'],
    ['a JSON string with HTML-safe escapes (Go)', 'S3cret p@ss!\\"\\u003c\\u0026\\u003e\'/é~'],
    ['XML text', 'S3cret p@ss!"&lt;&amp;&gt;\'/é~'],
    ['an XML attribute', 'S3cret p@ss!&quot;&lt;&amp;&gt;&apos;/é~'],
    ['HTML (&#39;)', 'S3cret p@ss!&quot;&lt;&amp;&gt;&#39;/é~'],
  ])('includes the secret as %s', (_where, form) => {
    expect(encodedForms(SECRET)).toContain(form);
  });
});

describe('masking a secret in its encoded forms', () => {
  it('masks a form-encoded secret in free text, as a server echoes it', () => {
    expect(redactText('rejected pin=S3cret+p%40ss%21%22%3C%26%3E%27%2F%C3%A9%7E for alice', { values: [SECRET] })).toBe('rejected pin=*** for alice');
  });

  it('masks a secret sent in a form field of any name in a printed request', () => {
    const shown = redactRequest({ method: 'POST', url: 'https://api.example.com/login', headers: {}, body: { kind: 'bytes', contentType: 'application/x-www-form-urlencoded', data: new URLSearchParams({ user: 'alice', pin: SECRET }).toString() } }, [SECRET]);
    expect(shown.body).toBe('user=alice&pin=***');
  });

  it('masks JSON- and XML-escaped copies in an echoed body', () => {
    const body = `{"echo":${JSON.stringify(SECRET)}} <x a="S3cret p@ss!&quot;&lt;&amp;&gt;&#39;/é~"/>`;
    expect(redactText(body, { values: [SECRET] })).toBe('{"echo":"***"} <x a="***"/>');
  });

  it('masks the encoded forms in the --inspect live view', () => {
    const live = createLiveSecrets([SECRET]);
    expect(live.mask(`criterion failed: $response.body#/received == "pin=${encodeURIComponent(SECRET)}"`)).toBe('criterion failed: $response.body#/received == "pin=***"');
  });

  it('valueMasker masks the values only, leaving name=value shapes of other values', () => {
    const mask = valueMasker(['tok-9f8e7d']);
    expect(mask('Bearer tok-9f8e7d; password=kept')).toBe('Bearer ***; password=kept');
  });
});
