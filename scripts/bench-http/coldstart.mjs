// stdio cold start: the time from spawn() to the first successful answer to one request, as a
// 2026-07-28 client sees it. The client writes `server/discover` at once (the pipe buffers it while
// Node starts), waits for the answer, then sends the measured request (`tools/list` or a
// `tools/call`); the clock stops when its answer arrives and passes the probe's check.
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { envelope } from './http.mjs';
import { clockTicks, cpuMs, spawnNode, stopChild } from './processes.mjs';

const ticks = clockTicks();

const discover = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope } });

/** A `tools/list` probe: the answer must list exactly `tools`. */
export function listProbe(tools) {
  const expected = [...tools].sort().join(',');
  return {
    method: 'tools/list',
    params: {},
    check: (result) =>
      (result?.tools ?? [])
        .map((tool) => tool.name)
        .sort()
        .join(',') === expected
        ? null
        : `expected tools ${expected}`,
  };
}

/** A `tools/call` probe: the answer must be a complete, successful result with `structuredContent`. */
export function callProbe(name, args, structuredContent) {
  const expected = JSON.stringify(structuredContent);
  return {
    method: 'tools/call',
    params: { name, arguments: args },
    check: (result) =>
      result?.isError !== true && JSON.stringify(result?.structuredContent) === expected
        ? null
        : `expected structuredContent ${expected}`,
  };
}

/**
 * One spawn; resolves with `{ wall, cpu }`: milliseconds to the probe's answer, and the CPU time the
 * server had used by then, which other load on the machine inflates far less than wall time
 * (waiting for a core does not count). Rejects after 15 s or on a wrong answer.
 */
export function coldStartOnce(args, env, probe) {
  const request = JSON.stringify({
    jsonrpc: '2.0',
    id: 2,
    method: probe.method,
    params: { ...probe.params, _meta: envelope },
  });
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
    const timer = setTimeout(
      () => finish(new Error(`${args.join(' ')}: no ${probe.method} answer within 15 s; stderr:\n${stderr}`)),
      15_000,
    );
    child.once('exit', (code) =>
      finish(new Error(`${args.join(' ')}: exited with ${code} before answering; stderr:\n${stderr}`)),
    );
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
        child.stdin.write(`${request}\n`);
      } else if (message.id === 2) {
        const wall = performance.now() - start;
        const cpu = cpuMs(child.pid, ticks);
        const problem = message.error !== undefined ? 'an error' : probe.check(message.result);
        if (problem !== null)
          return finish(new Error(`${args.join(' ')}: ${probe.method} answered ${line.slice(0, 300)} (${problem})`));
        finish(null, { wall, cpu });
      }
    });
    child.stdin.write(`${discover}\n`);
  });
}
