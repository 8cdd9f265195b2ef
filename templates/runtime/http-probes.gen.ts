/**
 * `/healthz` and `/readyz`: answered outside the call caps (a busy instance is still alive) and while draining; a
 * readiness check that does not answer in time fails.
 */
import { jsonError, methodNotAllowedCode, targetOf } from './http-request.gen.js';
import type { IncomingView, Readiness, ReadinessCheck } from './startup.gen.js';

/** How long `/readyz` waits for a check: under the one second an orchestrator's probe waits by default (Kubernetes). */
export const probeTimeoutMs = 500;

/** `/healthz` (live) or `/readyz` (ready), unless the MCP endpoint or the auth metadata has that path (they win). */
export function probeOf(req: IncomingView, taken: readonly string[]): 'live' | 'ready' | undefined {
  const path = targetOf(req)?.path.split('?')[0];
  if (path === undefined || taken.includes(path)) return undefined;
  return path === '/healthz' ? 'live' : path === '/readyz' ? 'ready' : undefined;
}

/**
 * The probe answers. Live: 200 whenever the process serves HTTP. Ready: 200 only once start-up has finished, every
 * check answers within probeTimeoutMs and the server is not draining; else 503, naming each check's state and the
 * reason a check gave (setup.ts's `ready`). The body says ok or not, never a host, URL, version or setting, so probes
 * need no auth and skip the Host and Origin checks (an orchestrator sends the pod's IP as Host); why a check threw
 * goes to stderr, once per change of its state. Each check runs once at a time however many probes wait on it, so a
 * flood of probes costs the store one PING at a time; its signal aborts when its time is up.
 */
export function probes(
  readiness: Readiness,
  draining: () => boolean,
  log: (message: string) => void,
): (kind: 'live' | 'ready', method: string | undefined) => Promise<Response> {
  // A check's verdict: null when it passed, else why not ('' when it gave no reason) and what stderr gets.
  type Verdict = { readonly reason: string; readonly detail: string } | null;
  const running = new Map<string, Promise<Verdict>>();
  const last = new Map<string, string>();
  const tooLate = { reason: '', detail: `no answer within ${probeTimeoutMs} ms` };
  const verdict = (name: string, check: ReadinessCheck): Promise<Verdict> => {
    let pending = running.get(name);
    if (pending === undefined) {
      const signal = AbortSignal.timeout(probeTimeoutMs);
      // An answer after the signal aborted is late, whatever it says.
      pending = Promise.resolve()
        .then(() => check(signal))
        .then(
          (reason) => (signal.aborted ? tooLate : typeof reason === 'string' ? { reason, detail: reason } : null),
          (error: unknown) =>
            signal.aborted ? tooLate : { reason: '', detail: error instanceof Error ? error.message : String(error) },
        );
      running.set(name, pending);
      void pending.then(() => running.delete(name));
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Verdict>((resolve) => (timer = setTimeout(resolve, probeTimeoutMs, tooLate)));
    return Promise.race([pending, late]).then((found) => {
      clearTimeout(timer);
      const state = found === null ? 'ok' : `down: ${found.detail}`;
      if (state !== (last.get(name) ?? 'ok')) log(`readyz: check "${name}" is ${found === null ? 'ok again' : state}`);
      last.set(name, state);
      return found;
    });
  };
  return async (kind, method) => {
    const headers = { 'cache-control': 'no-store' };
    if (method !== 'GET' && method !== 'HEAD')
      return jsonError(405, methodNotAllowedCode, 'Method not allowed.', { allow: 'GET, HEAD', ...headers });
    if (kind === 'live') return Response.json({ status: 'ok' }, { headers });
    const named = [...readiness.checks];
    const verdicts = await Promise.all(named.map(([name, check]) => verdict(name, check)));
    const checks: Record<string, string> = { startup: readiness.started ? 'ok' : 'pending' };
    const reasons: Record<string, string> = {};
    for (const [i, [name]] of named.entries()) {
      const found = verdicts[i];
      checks[name] = found === null ? 'ok' : 'down';
      if (found?.reason) reasons[name] = found.reason;
    }
    checks.shutdown = draining() ? 'draining' : 'ok';
    const ok = Object.values(checks).every((state) => state === 'ok');
    const body = { status: ok ? 'ok' : 'unavailable', checks, ...(Object.keys(reasons).length > 0 ? { reasons } : {}) };
    // A HEAD gets the same status and headers; Node sends no body in answer to HEAD.
    return Response.json(body, { status: ok ? 200 : 503, headers });
  };
}
