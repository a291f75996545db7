/** What the benchmark ran on, for results.json and docs/performance.md. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg, totalmem } from 'node:os';

function cpuModel() {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'));
    return line ? line.split(':').slice(1).join(':').trim() : 'unknown';
  } catch {
    return 'unknown';
  }
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/** CPU count and model, memory, Node version, load averages and the checked-out commit. */
export function machineInfo() {
  return {
    nproc: availableParallelism(),
    cpuModel: cpuModel(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadavg: loadavg().map((l) => Math.round(l * 100) / 100),
    commit: gitCommit(),
  };
}
