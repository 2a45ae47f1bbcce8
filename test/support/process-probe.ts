import { writeFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import path from 'node:path';

/** What a probed Node process said of itself as it exited. */
export interface ProcessReport {
  /** NODE_EXTRA_CA_CERTS as the process saw it. */
  extraCerts: string | null;
  /** The main thread's nice value, and every other thread's; null where /proc/self/task is missing. */
  mainNice: number | null;
  helperNices: number[] | null;
}

/**
 * Writes, into `dir`, a script to preload into a Node process (`--require`, or NODE_OPTIONS for
 * one started by a launcher) that reports the process's environment and threads on stderr as it
 * exits; `processReport` reads it back.
 */
export function writeProcessProbe(dir: string): string {
  const probe = path.join(dir, 'process-probe.cjs');
  writeFileSync(
    probe,
    `process.on('exit', () => {
      const fs = require('fs');
      const tasks = fs.existsSync('/proc/self/task') ? fs.readdirSync('/proc/self/task') : null;
      const nice = (task) => Number(fs.readFileSync('/proc/self/task/' + task + '/stat', 'utf8').split(') ')[1].split(' ')[16]);
      process.stderr.write('PROBE ' + JSON.stringify({
        extraCerts: process.env.NODE_EXTRA_CA_CERTS ?? null,
        mainNice: tasks && nice(process.pid),
        helperNices: tasks && tasks.filter((task) => Number(task) !== process.pid).map(nice),
      }) + '\\n');
    });`,
  );
  return probe;
}

export function processReport(stderr: string): ProcessReport {
  const report = /PROBE (.*)/.exec(stderr);
  assert.ok(report, `no report from the probe in: ${stderr}`);
  return JSON.parse(report[1]!) as ProcessReport;
}
