import { describe, expect, it } from '@jest/globals';
import { normaliseBaseUrl, parseHeaderFlag, validateEnvName, validateOAuthUrl } from '../../../src/config/validate-input.js';

describe('normaliseBaseUrl', () => {
  it.each([
    ['https://API.Example.com/v1/', 'https://api.example.com/v1'],
    ['https://api.example.com:443/v1', 'https://api.example.com/v1'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://127.0.0.1:8080///', 'http://127.0.0.1:8080'],
  ])('stores %s as %s', (raw, expected) => {
    expect(normaliseBaseUrl(raw)).toBe(expected);
  });

  it('refuses an empty query string too', () => {
    expect(() => normaliseBaseUrl('https://api.example.com/v1?')).toThrow('must not have a query string or fragment');
  });
});

describe('parseHeaderFlag', () => {
  it('trims the name and value', () => {
    expect(parseHeaderFlag(' X-Tenant :  acme corp ')).toEqual(['X-Tenant', 'acme corp']);
  });

  it('keeps colons inside the value', () => {
    expect(parseHeaderFlag('X-Time: 10:30')).toEqual(['X-Time', '10:30']);
  });

  it('refuses Proxy-Authorization and Cookie as registry headers', () => {
    expect(() => parseHeaderFlag('Proxy-Authorization: x')).toThrow('carries credentials');
    expect(() => parseHeaderFlag('cookie: a=b')).toThrow('carries credentials');
  });
});

describe('validateOAuthUrl', () => {
  it('accepts https anywhere and http only on loopback', () => {
    expect(validateOAuthUrl('--token-url', 'https://auth.example.com/token')).toBe('https://auth.example.com/token');
    expect(validateOAuthUrl('--token-url', 'http://localhost:9000/token')).toBe('http://localhost:9000/token');
    expect(validateOAuthUrl('--token-url', 'http://127.0.0.1:9000/token')).toBe('http://127.0.0.1:9000/token');
    expect(() => validateOAuthUrl('--token-url', 'http://auth.example.com/token')).toThrow('--token-url must use https');
  });
});

describe('validateEnvName', () => {
  it('accepts a variable name and refuses a value or $NAME', () => {
    expect(validateEnvName('--token-env', 'API_TOKEN')).toBe('API_TOKEN');
    expect(() => validateEnvName('--token-env', '$API_TOKEN')).toThrow('is not an environment variable name');
    expect(() => validateEnvName('--token-env', 'ghp_abc-123')).toThrow('is not an environment variable name');
  });
});
