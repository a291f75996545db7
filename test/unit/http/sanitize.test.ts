import { describe, expect, it } from '@jest/globals';
import { formatDryRun } from '../../../src/http/format-dry-run.js';
import { printableLine, printableText } from '../../../src/output/printable.js';
import { redactRequest, redactText, redactUrl } from '../../../src/output/redact.js';

const ESC = '\u001b';

describe('printableLine', () => {
  it('removes CSI, OSC and two-byte escape sequences, C0, DEL, C1 and bidi controls', () => {
    const hostile = `a${ESC}[31mred${ESC}[0m ${ESC}]0;pwned title\u0007b${ESC}]8;;https://evil.example\u001b\\link${ESC}]8;;${ESC}\\ c${ESC}cd\u0000e\u007ff\u009b2Jg\u0085h\u202eevil\u202ci\u2066j\u2069`;
    const shown = printableLine(hostile);
    expect(shown).toBe('ared blink cdefghevilij');
    expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it('puts the text on one line and cuts it at the given length', () => {
    expect(printableLine('first\r\nsecond\n\tthird')).toBe('first second third');
    expect(printableLine('x'.repeat(30), {}, 10)).toBe(`${'x'.repeat(10)}...`);
  });

  it('masks known secret values, also URL-encoded, longest first', () => {
    const shown = printableLine('bad client s3cr3t+value (s3cr3t%2Bvalue), prefix s3cr3t', { values: ['s3cr3t+value', 's3cr3t'] });
    expect(shown).toBe('bad client *** (***), prefix ***');
  });

  it('ignores known values too short to search for', () => {
    expect(printableLine('a b c', { values: ['b'] })).toBe('a b c');
  });
});

describe('printableText', () => {
  it('keeps line feeds and tabs but strips escapes and masks secrets', () => {
    expect(printableText(`{\n\t"msg": "${ESC}[2Jhi",\n\t"token": "abc123"\n}\r\n`)).toBe('{\n\t"msg": "hi",\n\t"token": "***"\n}\n');
  });
});

describe('redactText', () => {
  it('masks values of secret-like names in forms, JSON and header lines', () => {
    const text = 'grant_type=refresh_token&refresh_token=rt-9&client_secret=cs-1 {"password": "hunter22", "user": "ann"} PRIVATE-TOKEN: glpat-xyz';
    const shown = redactText(text);
    expect(shown).toBe('grant_type=refresh_token&refresh_token=***&client_secret=*** {"password": "***", "user": "ann"} PRIVATE-TOKEN: ***');
  });

  it('masks bearer and basic credentials and URL passwords, but keeps prose readable', () => {
    expect(redactText('sent Authorization: Bearer eyJhbGciOi.payload.sig to https://bob:pw@host/x')).toBe('sent Authorization: *** to https://bob:***@host/x');
    expect(redactText('Bearer abcdefgh12345678 at https://ghp_token123@github.com/x')).toBe('Bearer *** at https://***@github.com/x');
    expect(redactText('invalid_token: the access token expired; Basic authentication is off')).toBe('invalid_token: the access token expired; Basic authentication is off');
    expect(redactText('--with-token: nothing was read from stdin')).toBe('--with-token: nothing was read from stdin');
  });
});

describe('redactUrl', () => {
  it('masks access_token, a password and a lone token in the userinfo', () => {
    expect(redactUrl('https://u:pw@h.example/spec.yaml?access_token=abc&v=1')).toBe('https://u:***@h.example/spec.yaml?access_token=***&v=1');
    expect(redactUrl('https://ghp_abc@h.example/spec.yaml?private_token=x&client_secret=y')).toBe('https://***@h.example/spec.yaml?private_token=***&client_secret=***');
  });
});

describe('redactRequest on bodies', () => {
  it('masks client_secret, refresh_token and password in a form body', () => {
    const shown = redactRequest({
      method: 'POST',
      url: 'https://auth.example.com/token',
      headers: {},
      body: { kind: 'bytes', contentType: 'application/x-www-form-urlencoded', data: 'grant_type=password&username=ann&password=hunter2&client_secret=cs-1&refresh_token=rt-1' },
    });
    expect(shown.body).toBe('grant_type=password&username=ann&password=***&client_secret=***&refresh_token=***');
  });

  it('masks secret-named parts of a multipart body', () => {
    const shown = redactRequest({
      method: 'POST',
      url: 'https://auth.example.com/login',
      headers: {},
      body: { kind: 'multipart', parts: [{ name: 'username', value: 'ann' }, { name: 'password', value: 'hunter2' }, { name: 'api_key', value: 'k-1' }] },
    });
    expect(shown.body).toEqual([
      { name: 'username', value: 'ann' },
      { name: 'password', value: '***' },
      { name: 'api_key', value: '***' },
    ]);
  });

  it('masks secret-named JSON fields at any depth', () => {
    const shown = redactRequest({
      method: 'POST',
      url: 'https://api.example.com/users',
      headers: {},
      body: { kind: 'bytes', contentType: 'application/json', data: '{"name":"ann","auth":{"password":"hunter2","tokens":[1]}}' },
    });
    expect(shown.body).toEqual({ name: 'ann', auth: { password: '***', tokens: [1] } });
  });

  it('masks known values wherever they appear in the URL, headers and body', () => {
    const text = formatDryRun(
      'login',
      {
        method: 'POST',
        url: 'https://api.example.com/users/env-s3cret/x',
        headers: { 'x-note': 'has env-s3cret' },
        body: { kind: 'bytes', contentType: 'application/json', data: '{"note":"env-s3cret here"}' },
      },
      ['env-s3cret'],
    );
    expect(text).not.toContain('env-s3cret');
    expect(text).toBe('login POST https://api.example.com/users/***/x\n{"x-note":"has ***"}\n{"note":"*** here"}');
  });
});
