/** v2 and the `arazzo` version: 1.0.0 and 1.0.1 (any 1.0.x) are read; a 1.1.x document reached from a 1.0 one (an Arazzo source) is refused. */
import type { Report } from './finding.js';
import type { ArazzoDocument } from './model.js';
import type { RunnerProfile } from './runner-profile.js';

const ARAZZO_1_1 = /^1\.1\.\d+$/;

/**
 * Rewords the UNSUPPORTED_VERSION error of an Arazzo 1.1.x document read by a 1.0 profile (still
 * an error: exit 10). The entry document chooses the profile, so this is an Arazzo source of a 1.0
 * document: the run reads it when the entry document says `arazzo: 1.1.x` too.
 */
export function checkVersionForV2(doc: ArazzoDocument, report: Report, profile: RunnerProfile): void {
  const version = doc.arazzo;
  if (version === undefined || !ARAZZO_1_1.test(version) || profile.featureSet !== '1.0') return;
  for (const [i, finding] of report.findings.entries()) {
    if (finding.code !== 'UNSUPPORTED_VERSION') continue;
    report.findings[i] = {
      ...finding,
      message: `arazzo version "${version}" (Arazzo 1.1) is read by the ${profile.name} runner only as the document it runs, not as an Arazzo source of an Arazzo 1.0 document; make the document that includes it Arazzo 1.1 ("arazzo: 1.1.0")`,
    };
  }
}
