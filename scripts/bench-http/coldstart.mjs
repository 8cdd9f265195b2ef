// stdio cold start: the time from spawn() to the first successful `tools/list` answer, as a
// 2026-07-28 client sees it. The client writes `server/discover` at once (the pipe buffers it while
// Node starts), waits for the answer, then sends `tools/list`; the clock stops when the list arrives.
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { envelope } from './http.mjs';
import { clockTicks, cpuMs, spawnNode, stopChild } from './processes.mjs';

const ticks = clockTicks();

const discover = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope } });
const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope } });

/**
 * One spawn; resolves with `{ wall, cpu }`: milliseconds to the `tools/list` answer, and the CPU
 * time the server had used by then, which other load on the machine inflates far less than wall
 * time (waiting for a core does not count). Rejects after 15 s.
 */
export function coldStartOnce(args, env, tools = ['add', 'echo']) {
  const expected = [...tools].sort().join(',');
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawnNode(args, env);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk.toString('utf8')));
    let done = false;
    const finish = (error, sample) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdin.end(); // every server here exits when stdin closes; stopChild covers one that does not
      void stopChild(child).then(() => (error ? reject(error) : resolve(sample)));
    };
    const timer = setTimeout(() => finish(new Error(`${args.join(' ')}: no tools/list answer within 15 s; stderr:\n${stderr}`)), 15_000);
    child.once('exit', (code) => finish(new Error(`${args.join(' ')}: exited with ${code} before answering; stderr:\n${stderr}`)));
    child.stdin.on('error', () => {}); // EPIPE from a child that died is reported through 'exit'
    createInterface({ input: child.stdout }).on('line', (line) => {
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        return finish(new Error(`${args.join(' ')}: non-JSON line on stdout: ${line.slice(0, 200)}`));
      }
      if (message.id === 1) {
        if (message.error !== undefined) return finish(new Error(`server/discover failed: ${line.slice(0, 300)}`));
        child.stdin.write(`${list}\n`);
      } else if (message.id === 2) {
        const wall = performance.now() - start;
        const cpu = cpuMs(child.pid, ticks);
        const names = (message.result?.tools ?? []).map((tool) => tool.name).sort().join(',');
        if (names !== expected) return finish(new Error(`tools/list answered ${line.slice(0, 300)}`));
        finish(null, { wall, cpu });
      }
    });
    child.stdin.write(`${discover}\n`);
  });
}

/**
 * Cold starts of several servers, interleaved run by run so that machine noise spreads evenly.
 * The first `discard` rounds only warm the OS file cache and are not counted.
 * `servers` maps a label to node arguments; `tools` names what each `tools/list` must return
 * (default: add and echo). Returns label → `{ wall, cpu, rounds }`: sorted ms
 * samples, and the wall times again in round order, for differences between servers paired by round.
 */
export async function coldStarts(servers, env, { runs, discard = 2, tools }) {
  const samples = Object.fromEntries(Object.keys(servers).map((label) => [label, { wall: [], cpu: [], rounds: [] }]));
  for (let round = 0; round < runs + discard; round++) {
    for (const [label, args] of Object.entries(servers)) {
      const { wall, cpu } = await coldStartOnce(args, env, tools);
      if (round < discard) continue;
      samples[label].wall.push(wall);
      samples[label].rounds.push(wall);
      if (cpu !== null) samples[label].cpu.push(cpu);
    }
  }
  for (const { wall, cpu } of Object.values(samples)) {
    wall.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
  }
  return samples;
}

/** A stdio "server" that only answers each line: the cost of starting Node itself, for context. */
export const bareNodeArgs = [
  '-e',
  `require('node:readline').createInterface({ input: process.stdin }).on('line', (l) => {
     const { id } = JSON.parse(l);
     const result = id === 2 ? { tools: [{ name: 'add' }, { name: 'echo' }] } : {};
     process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
   });`,
];
