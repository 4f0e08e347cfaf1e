import { readFileSync } from 'node:fs';
const events = JSON.parse(readFileSync('/tmp/orchestra-lab-trace.json', 'utf8')).traceEvents;
const threadNames = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
const main = events.filter((e) => threadNames.get(`${e.pid}:${e.tid}`) === 'CrRendererMain' && e.ph === 'X');
const agg = new Map();
for (const e of main) agg.set(e.name, (agg.get(e.name) ?? [0,0]).map((v,i)=> i? v+1 : v + e.dur/1000));
console.log([...agg].sort((a,b)=>b[1][0]-a[1][0]).slice(0,30).map(([n,[d,c]])=>`${d.toFixed(0).padStart(6)} ms ${String(c).padStart(6)}x ${n}`).join('\n'));
// other threads
const byThread = new Map();
for (const e of events.filter(e=>e.name==='RunTask'&&e.ph==='X')) { const k = threadNames.get(`${e.pid}:${e.tid}`); byThread.set(k,(byThread.get(k)??0)+e.dur/1000); }
console.log(byThread);
