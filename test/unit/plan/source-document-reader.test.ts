import { describe, expect, it } from '@jest/globals';
import { DescriptionError } from '../../../src/openapi/errors.js';
import { sourceTarget } from '../../../src/plan/source-document-reader.js';

function refusal(location: string, base: string, allowRefHosts: string[] = []): string {
  try {
    sourceTarget(location, base, allowRefHosts);
  } catch (error) {
    expect(error).toBeInstanceOf(DescriptionError);
    expect((error as DescriptionError).code).toBe('DESCRIPTION_REFUSED');
    return (error as Error).message;
  }
  throw new Error(`${location} was not refused`);
}

describe('where the sources of an Arazzo source point', () => {
  it('resolves a local document\'s sources against its folder, and lets it name any URL', () => {
    expect(sourceTarget('./api.yaml', '/w/lib/lib.arazzo.yaml', [])).toEqual({ location: '/w/lib/api.yaml', remote: false });
    expect(sourceTarget('../other/x.arazzo.yaml', '/w/lib/lib.arazzo.yaml', [])).toEqual({ location: '/w/other/x.arazzo.yaml', remote: false });
    expect(sourceTarget('http://10.0.0.1/api.yaml', '/w/lib/lib.arazzo.yaml', [])).toEqual({ location: 'http://10.0.0.1/api.yaml', remote: true });
  });

  it('resolves a remote document\'s relative sources against its URL', () => {
    expect(sourceTarget('./api.yaml', 'https://specs.example.com/flows/lib.arazzo.yaml', [])).toEqual({ location: 'https://specs.example.com/flows/api.yaml', remote: true });
    expect(sourceTarget('https://specs.example.com/other.yaml', 'https://specs.example.com/flows/lib.arazzo.yaml', [])).toEqual({ location: 'https://specs.example.com/other.yaml', remote: true });
  });

  it('keeps a remote document\'s sources on its origin unless --tool-allow-ref-host allows the host', () => {
    expect(refusal('http://169.254.169.254/latest/meta-data', 'https://specs.example.com/lib.arazzo.yaml')).toContain(
      'must stay on its origin (https://specs.example.com), and 169.254.169.254 is not allowed; pass --tool-allow-ref-host 169.254.169.254 if you trust it',
    );
    expect(sourceTarget('https://shared.example.org/api.yaml', 'https://specs.example.com/lib.arazzo.yaml', ['shared.example.org']).remote).toBe(true);
  });

  it('never lets a remote document name a local file', () => {
    expect(refusal('/etc/passwd', 'https://specs.example.com/lib.arazzo.yaml')).toContain('may not name local files');
    expect(refusal('file:///etc/passwd', 'https://specs.example.com/lib.arazzo.yaml')).toContain('may not name local files');
  });
});
