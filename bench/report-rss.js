/**
 * Loaded with `node --import` when /usr/bin/time is absent: records the process's peak RSS (KiB,
 * like GNU time's %M) in the file named by BENCH_RSS_FILE when the process exits.
 */
import { writeFileSync } from 'node:fs';

const target = process.env.BENCH_RSS_FILE;
if (target) process.on('exit', () => writeFileSync(target, `${process.resourceUsage().maxRSS}\n`));
