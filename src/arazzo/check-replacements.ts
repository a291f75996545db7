/** v2: each `requestBody.replacements` target compiles: an RFC 6901 pointer for a JSON body, an XPath for an XML one. */
import { parsePointer } from '../expressions/json-pointer.js';
import { checkXPath } from '../expressions/xpath-criterion.js';
import type { Report } from './finding.js';
import type { FeatureSet } from './runner-profile.js';
import type { ArazzoDocument, RequestBody } from './model.js';
import { childPointer } from './read-fields.js';

/**
 * Reports a target that does not compile (REPLACEMENT_TARGET_SYNTAX). The body's kind comes from
 * its `contentType` (XML when it contains "xml"); without one, a structured payload is JSON and a
 * string payload is left to the run, which knows the operation's content type. fontoxpath is
 * loaded only when an XML target is there to check.
 */
export async function checkReplacements(doc: ArazzoDocument, report: Report, featureSet: FeatureSet = '1.0'): Promise<void> {
  const xpaths: Array<{ target: string; pointer: string; stepId: string }> = [];
  for (const workflow of doc.workflows) {
    for (const step of workflow.steps) {
      const body = step.requestBody;
      if (body === undefined || body.replacements.length === 0) continue;
      const kind = bodyKind(body);
      for (const replacement of body.replacements) {
        if (replacement.target === undefined || kind === undefined) continue; // MISSING_FIELD, or the run decides
        if (featureSet === '1.1' && replacement.targetSelectorType !== undefined) continue; // check-selectors.ts
        const pointer = childPointer(replacement.pointer, 'target');
        if (kind === 'xml') {
          xpaths.push({ target: replacement.target, pointer, stepId: step.stepId ?? '' });
          continue;
        }
        try {
          parsePointer(replacement.target);
        } catch (error) {
          report.error('REPLACEMENT_TARGET_SYNTAX', pointer, `step "${step.stepId ?? ''}": replacement target "${replacement.target}" is not a JSON pointer: ${(error as Error).message}`);
        }
      }
    }
  }
  if (xpaths.length === 0) return;
  const { loadCriterionLibraries } = await import('../expressions/criterion-libraries.js');
  const library = (await loadCriterionLibraries(['xpath'])).xpath!;
  for (const { target, pointer, stepId } of xpaths) {
    try {
      checkXPath(library, target);
    } catch (error) {
      report.error('REPLACEMENT_TARGET_SYNTAX', pointer, `step "${stepId}": replacement target ${JSON.stringify(target)} is not an XPath expression: ${(error as Error).message}`);
    }
  }
}

function bodyKind(body: RequestBody): 'xml' | 'json' | undefined {
  if (body.contentType !== undefined) return body.contentType.toLowerCase().includes('xml') ? 'xml' : 'json';
  return typeof body.payload === 'string' ? undefined : 'json';
}
