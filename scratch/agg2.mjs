import { readFileSync } from 'node:fs';
const events = JSON.parse(readFileSync('/tmp/orchestra-lab-trace.json', 'utf8')).traceEvents;
const threadNames = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
const main = events.filter((e) => threadNames.get(`${e.pid}:${e.tid}`) === 'CrRendererMain' && e.ph === 'X');
const agg = new Map();
for (const e of main.filter(e=>e.name==='FunctionCall' || e.name==='TimerFire' || e.name==='FireAnimationFrame' || e.name==='EventDispatch')) {
  const d = e.args?.data ?? {};
  const k = `${e.name} ${d.functionName ?? ''} ${String(d.url ?? '').split('/').pop()}:${d.lineNumber ?? ''} ${d.type ?? ''}`;
  agg.set(k, (agg.get(k) ?? [0,0]).map((v,i)=> i? v+1 : v + e.dur/1000));
}
console.log([...agg].sort((a,b)=>b[1][1]-a[1][1]).slice(0,25).map(([n,[d,c]])=>`${d.toFixed(0).padStart(6)} ms ${String(c).padStart(6)}x ${n}`).join('\n'));
