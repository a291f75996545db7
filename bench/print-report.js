/** Prints the benchmark results as Markdown tables (pasteable into docs/performance.md). */

function table(headers, rows) {
  const cells = [headers, ...rows].map((row) => row.map((cell) => (cell === null || cell === undefined ? '-' : String(cell))));
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  const line = (row) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [line(cells[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join('\n');
}

/** Writes the machine line, the scenario and cold-start tables, the loop-record check and every target's verdict to `out`. */
export function printReport(results, out) {
  const m = results.machine;
  const write = (text = '') => out.write(`${text}\n`);
  write();
  write(`${results.date} · ${m.nproc} CPUs (${m.cpuModel}) · ${m.memoryGiB} GiB · Node ${m.node} · ${m.platform} · commit ${m.commit}`);
  write(`load average before ${m.loadavg.join(' ')}, after ${results.loadAfter.join(' ')} · ${results.runs} runs each, medians`);
  write(`program: ${results.tool} -> ${results.entry === 'bundle' ? 'dist/bundle/tool.js (bundle)' : `WARNING: ${results.entry === 'mixed' ? 'bundle and separate modules (dist/ was rebuilt during the run)' : 'dist/src/bin.js (separate modules: the bundle is missing or older than tsc output; run npm run build)'}`}`);
  write();
  write(
    table(
      ['scenario', 'steps', 'requests', 'CLI wall ms', 'steps/s', 'raw got ms', 'raw req/s', 'CLI ms/step', 'raw ms/req', 'overhead ms/step', 'record bytes', 'peak RSS MiB', 'raw got RSS MiB'],
      results.scenarios.map((s) => [
        s.name,
        s.steps,
        s.requests,
        s.cliWallMs,
        s.stepsPerSec,
        s.rawMs,
        s.rawRequestsPerSec,
        s.cliPerStepMs,
        s.rawPerRequestMs,
        s.overheadPerStepMs,
        s.recordBytes,
        s.peakRssMiB,
        s.rawPeakRssMiB,
      ]),
    ),
  );
  write();
  write(table(['command', 'median ms', 'over node -e 0 ms', 'peak RSS MiB'], results.cold.map((c) => [c.command, c.medianMs, c.overNodeMs, c.peakRssMiB])));
  write();
  const b = results.breakdown;
  if (b) {
    write(
      `linear-1000 overhead per step: ${b.documentMsPerStep} ms the document (read, parsed or from the document cache, validation; ` +
        `\`validate\` of it takes ${b.validate1000Ms} ms and ${b.validate1000PeakRssMiB} MiB), ` +
        `${b.restMsPerStep} ms the rest (steps and machine compiled, machine walked, requests rendered and judged, GC)`,
    );
    write();
  }
  const fresh = results.scenarios.find((sc) => sc.name === 'linear-1000-new');
  if (fresh && Number.isFinite(fresh.cliPerStepMs) && fresh.rawPerRequestMs > 0) {
    write(
      `linear-1000 as a document's first run (its text new to the document cache, so parsed): ${fresh.cliPerStepMs} ms/step / ` +
        `${fresh.rawPerRequestMs} ms/request = ${(fresh.cliPerStepMs / fresh.rawPerRequestMs).toFixed(2)} (not a target: the targets' runs repeat a document)`,
    );
    write();
  }
  const loop = results.loopCheck;
  if (loop.verdict === 'SKIPPED') write('loop record check: SKIPPED (needs loop-250 and loop-500)');
  else {
    write(
      `loop record check: ${loop.verdict} — ${loop.entries} entries, ${loop.flat ? 'flat' : 'NOT flat'}; ` +
        `${loop.bytes250} B (250) -> ${loop.bytes500} B (500), ratio ${loop.ratio}, ${loop.bytesPerEntry} B per entry`,
    );
  }
  write();
  const valueOf = (t) => (t.value === null ? '-' : `${t.value}${t.unit ? ` ${t.unit}` : ''}`);
  const limitOf = (t) => `<= ${t.limit}${t.unit ? ` ${t.unit}` : ''}`;
  write(table(['target', 'value', 'from (medians)', 'limit', 'verdict'], results.targets.map((t) => [t.name, valueOf(t), t.raw, limitOf(t), t.verdict])));
  if (results.before) {
    write();
    write(`side by side, same rounds: before = ${results.before.tool}`);
    write();
    write(
      table(
        ['target', 'before', 'after', 'limit', 'before verdict', 'after verdict'],
        results.targets.map((t, i) => {
          const b = results.before.targets[i];
          return [t.name, `${valueOf(b)} (${b.raw})`, `${valueOf(t)} (${t.raw})`, limitOf(t), b.verdict, t.verdict];
        }),
      ),
    );
  }
  const failed = results.targets.filter((t) => t.verdict === 'FAIL');
  if (loop.verdict === 'FAIL') failed.push({ name: 'loop record flat and linear' });
  write();
  write(failed.length === 0 ? 'ALL TARGETS PASS' : `FAIL: ${failed.length} target(s) missed: ${failed.map((t) => t.name).join('; ')}`);
}
