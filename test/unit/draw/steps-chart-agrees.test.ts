/**
 * `arazzo graph` draws the steps chart from the plans (steps-chart.ts); the `--inspect` live view
 * still reads it back out of the compiled machine config (read-steps.ts) until src/run hands it
 * the plans. Both must draw the same chart: this compares them for every workflow of every
 * fixture and example, planned as v1 and as v2 (with the workflows each reaches).
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDocument } from '../../../src/arazzo/load-document.js';
import { V1_PROFILE, V2_PROFILE } from '../../../src/arazzo/runner-profile.js';
import { configSteps } from '../../../src/draw/read-steps.js';
import { workflowSteps } from '../../../src/draw/read-workflows.js';
import { criteriaOptionsFor } from '../../../src/plan/criteria-options.js';
import { drawingMachine } from '../../../src/plan/drawing-configs.js';
import { planReachable } from '../../../src/plan/plan-reachable.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function documents(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return documents(path);
    return /arazzo.*\.(ya?ml|json)$/.test(name) ? [path] : [];
  });
}

describe('the steps chart from the plan', () => {
  it('is the chart read back from the compiled machine, for every workflow of the fixtures and examples', async () => {
    const compared = new Set<string>();
    const differ: string[] = [];
    for (const file of [...documents(join(ROOT, 'test/fixtures')), ...documents(join(ROOT, 'examples'))]) {
      const doc = await loadDocument(file, { cwd: ROOT }).catch(() => undefined);
      if (doc === undefined) continue;
      for (const profile of [V1_PROFILE, V2_PROFILE]) {
        const criteria = await criteriaOptionsFor(doc.model, profile);
        for (const workflow of doc.model.workflows ?? []) {
          // Documents that do not plan (the invalid ones) draw nothing.
          let plans;
          try {
            plans = planReachable(doc.model, workflow, criteria);
          } catch {
            continue;
          }
          for (const [key, plan] of plans) {
            const name = `${file.slice(ROOT.length)} ${profile.name} ${key}`;
            if (compared.has(name)) continue;
            compared.add(name);
            const fromPlan = workflowSteps(plan);
            const fromConfig = configSteps(drawingMachine(plan).config);
            if (JSON.stringify([fromPlan.chart, [...fromPlan.calls]]) !== JSON.stringify([fromConfig.chart, [...fromConfig.calls]])) differ.push(name);
          }
        }
      }
    }
    expect(compared.size).toBeGreaterThan(200);
    expect(differ).toEqual([]);
  });
});
