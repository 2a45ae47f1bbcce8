import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { render } from './dist/engine/index.js';
import { readmeSizedCorpus } from './dist/bench/corpus.js';
const docs = readmeSizedCorpus().map((d) => readFileSync(d.file, 'utf8'));
for (const md of docs) await render(md, { resources: 'lenient' });
for (const md of docs) await render(md, { resources: 'lenient' });
const s = new Session(); s.connect();
await s.post('Profiler.enable'); await s.post('Profiler.setSamplingInterval', { interval: 100 }); await s.post('Profiler.start');
const t = performance.now(); let n = 0;
const phases = { setup: 0, render: 0, serialize: 0 };
for (let r = 0; r < 10; r++) for (const md of docs) { const res = await render(md, { resources: 'lenient' }); n++; for (const k in phases) phases[k] += res.timings[k]; }
console.log('avg ms', ((performance.now() - t) / n).toFixed(2), Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, (v / n).toFixed(2)])));
const { profile } = await s.post('Profiler.stop');
writeFileSync('/tmp/svc.cpuprofile', JSON.stringify(profile));
