/** v2 and the `arazzo` version: 1.0.0 and 1.0.1 (any 1.0.x) are read; a 1.1.x document is refused as not yet supported. */
import type { Report } from './finding.js';
import type { ArazzoDocument } from './model.js';
import type { RunnerProfile } from './runner-profile.js';

const ARAZZO_1_1 = /^1\.1\.\d+$/;

/** Rewords the UNSUPPORTED_VERSION error of an Arazzo 1.1.x document (still an error: exit 10) to say that v2 does not read it yet. */
export function checkVersionForV2(doc: ArazzoDocument, report: Report, profile: RunnerProfile): void {
  const version = doc.arazzo;
  if (version === undefined || !ARAZZO_1_1.test(version) || profile.notYetText === undefined) return;
  for (const [i, finding] of report.findings.entries()) {
    if (finding.code !== 'UNSUPPORTED_VERSION') continue;
    report.findings[i] = {
      ...finding,
      message: `arazzo version "${version}" (Arazzo 1.1) is ${profile.notYetText}; it reads Arazzo 1.0.x documents ("1.0.0", "1.0.1")`,
    };
  }
}
