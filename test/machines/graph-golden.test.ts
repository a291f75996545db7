/**
 * Golden graphs: `tool arazzo graph --level machine` on the demo, the graph fixture and the official
 * examples that validate, in every format, and the steps level (the default) of the demo and the
 * graph fixtures. Regenerate with `UPDATE_GOLDEN=1 npm test -- test/machines/graph-golden` (which
 * also rewrites docs/images/demo-adoptPet.svg).
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTool } from '../cli/run-tool.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GOLDEN = join(ROOT, 'test/golden/graph');
/** shared/ sits beside the repository, on a developer's machine and in CI alike. */
const OFFICIAL = join(ROOT, 'test/fixtures/arazzo-examples/examples/1.0.0');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const CASES: Array<[name: string, file: string, workflowId: string]> = [
  ['demo-adoptPet', join(ROOT, 'examples/demo/adopt-pet.arazzo.yaml'), 'adoptPet'],
  ['fixture-checkout', join(ROOT, 'test/fixtures/graph/actions.arazzo.yaml'), 'checkout'],
  ['official-ExtendedParametersExample', join(OFFICIAL, 'ExtendedParametersExample.arazzo.yaml'), 'animal-workflow'],
  ['official-FAPI-PAR', join(OFFICIAL, 'FAPI-PAR.arazzo.yaml'), 'OIDC-PAR-AuthzCode'],
  ['official-LoginAndRetrievePets', join(OFFICIAL, 'LoginAndRetrievePets.arazzo.yaml'), 'loginUserRetrievePet'],
  ['official-oauth', join(OFFICIAL, 'oauth.arazzo.yaml'), 'refresh-token-flow'],
  ['official-pet-coupons', join(OFFICIAL, 'pet-coupons.arazzo.yaml'), 'apply-coupon'],
];

const FORMATS = [
  ['mermaid', 'mmd'],
  ['dot', 'dot'],
  ['json', 'json'],
] as const;

const STEP_CASES: Array<[name: string, file: string, workflowId: string]> = [
  ['demo-adoptPet', join(ROOT, 'examples/demo/adopt-pet.arazzo.yaml'), 'adoptPet'],
  ['fixture-checkout', join(ROOT, 'test/fixtures/graph/actions.arazzo.yaml'), 'checkout'],
  ['fixture-placeOrder', join(ROOT, 'test/fixtures/graph/ten-steps.arazzo.yaml'), 'placeOrder'],
];

const TABLE: Array<readonly [golden: string, file: string, workflowId: string, format: string, level: string]> = [
  ...CASES.flatMap(([name, file, workflowId]) => FORMATS.map(([format, ext]) => [`machine/${name}.${ext}`, file, workflowId, format, 'machine'] as const)),
  ...STEP_CASES.flatMap(([name, file, workflowId]) => FORMATS.filter(([format]) => format !== 'json').map(([format, ext]) => [`steps/${name}.${ext}`, file, workflowId, format, 'steps'] as const)),
];
const DEMO = join(ROOT, 'examples/demo/adopt-pet.arazzo.yaml');

/** Compares `actual` with the golden file, or rewrites the file when UPDATE_GOLDEN=1. */
function expectGolden(name: string, actual: string, folder = GOLDEN): void {
  const path = join(folder, name);
  if (UPDATE) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
  }
  expect(existsSync(path) ? readFileSync(path, 'utf8') : `(no golden file ${name}; run with UPDATE_GOLDEN=1)`).toBe(actual);
}

describe('tool arazzo graph: golden files', () => {
  it.each(TABLE)('draws %s', async (golden, file, workflowId, format, level) => {
    const result = await runTool(['arazzo', 'graph', file, '--workflow', workflowId, '--format', format, '--level', level]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expectGolden(golden, result.stdout);
  });

  it('is what docs/state-machine.md shows for the demo workflow: the steps level, then the machine level', async () => {
    const doc = readFileSync(join(ROOT, 'docs/state-machine.md'), 'utf8');
    const shown = [...doc.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1]);
    const steps = await runTool(['arazzo', 'graph', DEMO]);
    const machine = await runTool(['arazzo', 'graph', DEMO, '--level', 'machine']);
    expect(shown).toEqual([steps.stdout, machine.stdout]);
  });

  it('is the SVG docs/images/demo-adoptPet.svg shows, rendered by the tool itself', async () => {
    const drawn = await runTool(['arazzo', 'graph', DEMO, '--format', 'svg']);
    expect(drawn.code).toBe(0);
    expectGolden('demo-adoptPet.svg', drawn.stdout, join(ROOT, 'docs/images'));
    expect(readFileSync(join(ROOT, 'docs/state-machine.md'), 'utf8')).toContain('](images/demo-adoptPet.svg)');
  });

  it('draws the same text on every run', async () => {
    const argv = ['arazzo', 'graph', join(ROOT, 'test/fixtures/graph/actions.arazzo.yaml'), '--format', 'dot'];
    const [first, second] = await Promise.all([runTool(argv), runTool(argv)]);
    expect(second.stdout).toBe(first.stdout);
  });
});
