import { createDefaultEsmPreset } from 'ts-jest';

/** @type {import('jest').Config} */
export default {
  ...createDefaultEsmPreset({ tsconfig: 'tsconfig.json' }),
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testTimeout: 20000,
  // jest's default is one worker fewer than the cores: on the 2-core machine, one file at a time.
  // Most files now wait on loopback I/O or a child process, so a worker per core is faster
  // (test/cli + test/e2e: 78 s instead of 109 s, measured at load 4.5; docs/architecture.md#tests).
  maxWorkers: '100%',
};
