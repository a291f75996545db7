/** Paths and loaders for the Arazzo fixtures (test/fixtures/arazzo). */
import { fileURLToPath } from 'node:url';
import type { Finding } from '../../../src/arazzo/finding.js';
import { loadDocument } from '../../../src/arazzo/load-document.js';
import type { LoadedDocument } from '../../../src/arazzo/model.js';
import { validateDocument } from '../../../src/arazzo/validate-document.js';
import { localOperationsLoader } from '../../../src/cli/source-operations.js';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/arazzo/', import.meta.url));
/** The official Arazzo examples, copied from shared/ (see its PROVENANCE.md). */
export const EXAMPLES = fileURLToPath(new URL('../../fixtures/arazzo-examples/', import.meta.url)).replace(/\/$/, '');

/** Loads a fixture by file name. */
export function loadFixture(name: string, cwd = FIXTURES): Promise<LoadedDocument> {
  return loadDocument(name, { cwd });
}

/** Loads and validates a fixture, with operationIds checked against local sources as the CLI does. */
export async function findingsOf(name: string, cwd = FIXTURES): Promise<Finding[]> {
  const doc = await loadFixture(name, cwd);
  return validateDocument(doc, { loadOperations: localOperationsLoader(doc.absolutePath) });
}

/** `CODE@pointer` for each finding: compact enough to compare whole lists. */
export function codesAt(findings: readonly Finding[]): string[] {
  return findings.map((finding) => `${finding.code}@${finding.pointer}`);
}
