/**
 * Approval by a person on a page the server serves, for a client that cannot ask in-band (it declares no form
 * elicitation) or a server whose manifest says `approvals.page: always`. A call mints a one-time approval for exactly
 * this principal, tool and argument digest, stored with an expiry in the state store (so with `redis` every instance
 * sees it); the answer carries a link to `/approvals/<id>`. The page shows the call and posts Approve or Decline once,
 * with a CSRF token bound to the approval; the same call repeated after Approve runs once, across instances.
 *
 * The page is served on the server's own HTTP origin, or, for a stdio server, on a loopback listener opened when the
 * first approval needs it (`MCP_GEN_APPROVAL_PORT`, default any free port; `MCP_GEN_APPROVAL_HOST` must be loopback).
 * `MCP_GEN_APPROVAL_ORIGIN` names the public origin instead, for HTTP behind a proxy and for a stdio server whose
 * store is shared with an HTTP instance that serves the pages.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { approvalPage, noticePage, pagePolicy, type PageCall } from './approval-html.gen.js';
import type { ToolSpec } from './spec.gen.js';
import type { IncomingView } from './startup.gen.js';
import type { StateStore } from './store.gen.js';

/** What a call that needs a person's approval may do now. */
export type PageVerdict =
  | { readonly kind: 'run' }
  | { readonly kind: 'declined' }
  | { readonly kind: 'ask'; readonly url: string; readonly expiresAt: number; readonly renewed: boolean };

/** The path every approval page lives under. */
export const approvalsPath = '/approvals/';

const idPattern = /^[A-Za-z0-9_-]{22}$/;
const maxFormBytes = 4096;
const loopbackHosts = new Set(['127.0.0.1', '::1', 'localhost']);

const headers = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': pagePolicy,
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // same-origin, not no-referrer: under no-referrer a browser posts the form with `Origin: null`.
  'referrer-policy': 'same-origin',
};

const html = (status: number, body: string, extra: Record<string, string> = {}): Response =>
  new Response(body, { status, headers: { ...headers, ...extra } });

/** Reads a small form body; null when it is larger than a form of two fields can be. */
async function readForm(req: IncomingView): Promise<URLSearchParams | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxFormBytes) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The one-time approvals of one server process, and the pages that decide them. */
export class ApprovalPages {
  private origin: string | null = null;
  private listener: Promise<string> | null = null;

  constructor(
    private readonly store: StateStore,
    private readonly key: Buffer,
    private readonly server: string,
    private readonly ttlMs: number,
    private readonly environment: NodeJS.ProcessEnv,
    private readonly log: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Serves the pages on the HTTP transport's own origin (http.gen.ts calls it once it listens). */
  attach(origin: string): void {
    // Behind a proxy, or on a wildcard address, the links must name the public origin instead.
    this.origin = this.configuredOrigin(origin) ?? origin;
  }

  /** `MCP_GEN_APPROVAL_ORIGIN` when it is an origin; null (with a log line naming `fallback`) otherwise. */
  private configuredOrigin(fallback: string): string | null {
    const configured = this.environment.MCP_GEN_APPROVAL_ORIGIN;
    if (configured === undefined) return null;
    if (URL.canParse(configured) && new URL(configured).origin === configured) return configured;
    this.log(`MCP_GEN_APPROVAL_ORIGIN "${configured}" is not an origin (https://host[:port]); links name ${fallback}`);
    return null;
  }

  /** Where pages are served: the HTTP origin, the configured one, or a loopback listener opened on the first need. */
  private base(): Promise<string> {
    if (this.origin !== null) return Promise.resolve(this.origin);
    // A stdio server on a shared store may name an HTTP instance that serves its pages: a client that starts one
    // server per call (MCP Inspector's CLI) would end a loopback listener before a person could open the link.
    const configured = this.configuredOrigin('a loopback listener');
    if (configured !== null) {
      this.origin = configured;
      return Promise.resolve(configured);
    }
    this.listener ??= this.listen();
    return this.listener;
  }

  private listen(): Promise<string> {
    const host = this.environment.MCP_GEN_APPROVAL_HOST ?? '127.0.0.1';
    const port = Number(this.environment.MCP_GEN_APPROVAL_PORT ?? '0');
    if (!loopbackHosts.has(host) || !Number.isInteger(port) || port < 0 || port > 65535)
      return Promise.reject(
        new Error('MCP_GEN_APPROVAL_HOST must be a loopback address and MCP_GEN_APPROVAL_PORT a port'),
      );
    // The origin the links name, set once the listener has its port; only that Host is served (DNS rebinding).
    let origin = '';
    let allowed = new Set<string>();
    const server: Server = createServer((req, res) => {
      // A request target the URL parser refuses (`//[`) is the client's mistake, and must not end the process.
      const path = URL.canParse(req.url ?? '/', origin) ? new URL(req.url ?? '/', origin).pathname : null;
      const answer = !allowed.has(req.headers.host ?? '')
        ? Promise.resolve(noticeResponse(421, 'Wrong host', 'This page is served on another address.'))
        : path === null
          ? Promise.resolve(noticeResponse(400, 'Bad request', 'This address is not one of this page.'))
          : this.serve(req, path, origin);
      answer
        .then(async (response) => {
          res.writeHead(response.status, Object.fromEntries(response.headers));
          res.end(Buffer.from(await response.arrayBuffer()));
        })
        .catch(() => res.writeHead(500).end());
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        // The listener never keeps a stdio server alive on its own.
        server.unref();
        const { port: bound } = server.address() as { port: number };
        origin = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
        allowed = new Set([new URL(origin).host, `localhost:${bound}`]);
        this.log(`approval pages on ${origin}${approvalsPath}`);
        resolve(origin);
      });
    });
  }

  private tokenOf(id: string): string {
    return createHmac('sha256', this.key).update(`approval-page\u0000${id}`).digest('base64url');
  }

  /** Decides a call of `tool` with `args` (canonical JSON by name, and their digest) for `principal`. */
  async request(tool: ToolSpec, args: PageCall['args'], digest: string, principal: string): Promise<PageVerdict> {
    const callHash = createHash('sha256').update(`${principal}\u0000${tool.name}\u0000${digest}`).digest('base64url');
    const callKey = `approval-call:${callHash}`;
    const known = await this.store.get(callKey);
    let renewed = false;
    if (known !== null) {
      const decision = await this.store.get(`approval-decision:${known}`);
      if (decision === 'approve') {
        const first = await this.store.claim(`approval-used:${known}`, tool.name, this.ttlMs);
        await this.store.remove(callKey);
        if (first) return { kind: 'run' };
      } else if (decision === 'decline') {
        await this.store.remove(callKey);
        return { kind: 'declined' };
      } else {
        const pending = await this.store.get(`approval-page:${known}`);
        if (pending !== null) {
          const { expiresAt } = JSON.parse(pending) as PageCall;
          return { kind: 'ask', url: `${await this.base()}${approvalsPath}${known}`, expiresAt, renewed: false };
        }
        renewed = true;
      }
    }
    const id = randomBytes(16).toString('base64url');
    const expiresAt = this.now() + this.ttlMs;
    const call: PageCall = {
      server: this.server,
      tool: tool.name,
      title: tool.listing.title ?? null,
      description: tool.listing.description,
      annotations: tool.listing.annotations,
      principal,
      args,
      expiresAt,
    };
    await this.store.put(`approval-page:${id}`, JSON.stringify(call), this.ttlMs);
    // Longer than the page, so that a repeat after the expiry can say the link expired instead of asking anew.
    await this.store.put(callKey, id, 2 * this.ttlMs);
    return { kind: 'ask', url: `${await this.base()}${approvalsPath}${id}`, expiresAt, renewed };
  }

  /** Answers a request for `path` under `approvalsPath` on `origin`: the page, or the decision it posts. */
  async serve(req: IncomingView, path: string, origin: string): Promise<Response> {
    const id = path.slice(approvalsPath.length);
    if (!path.startsWith(approvalsPath) || !idPattern.test(id))
      return noticeResponse(404, 'No such approval', 'This approval link is not valid.');
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST')
      return noticeResponse(405, 'Not allowed', 'Open the link in a browser.', { allow: 'GET, HEAD, POST' });
    const stored = await this.store.get(`approval-page:${id}`);
    if (stored === null)
      return noticeResponse(404, 'No such approval', 'This approval link is unknown or has expired; nothing was run.');
    const decided = await this.store.get(`approval-decision:${id}`);
    // A decision is final: a replayed or second POST changes nothing.
    if (decided !== null) return decidedResponse(decided, method === 'POST' ? 409 : 200);
    if (method !== 'POST') {
      const page = approvalPage(JSON.parse(stored) as PageCall, `${approvalsPath}${id}`, this.tokenOf(id));
      return html(200, method === 'HEAD' ? '' : page);
    }
    // A form posted from any other page, site or frame is refused before its body is read. Every browser sends
    // Origin with a POST: a request without one is a program, not a person's click (one that forges it is not
    // stopped here; docs/security.md says so).
    const site = req.headers['sec-fetch-site'];
    const own = this.origin ?? origin;
    if (req.headers.origin !== own || (site !== undefined && site !== 'same-origin'))
      return noticeResponse(403, 'Refused', 'This decision did not come from the approval page; nothing changed.');
    if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? ''))
      return noticeResponse(415, 'Refused', 'Post the approval form itself.');
    const form = await readForm(req);
    const token = Buffer.from(form?.get('token') ?? '');
    const expected = Buffer.from(this.tokenOf(id));
    if (form === null || token.length !== expected.length || !timingSafeEqual(token, expected))
      return noticeResponse(403, 'Refused', 'The form was not the approval page of this link; nothing changed.');
    const decision = form.get('decision');
    if (decision !== 'approve' && decision !== 'decline')
      return noticeResponse(400, 'Refused', 'Choose Approve or Decline.');
    const { expiresAt } = JSON.parse(stored) as PageCall;
    const ttl = expiresAt - this.now();
    if (ttl <= 0) return noticeResponse(410, 'Expired', 'This approval has expired; nothing was run.');
    // One decision per approval, even when two are posted at once: the first claim wins.
    if (!(await this.store.claim(`approval-decision:${id}`, decision, ttl)))
      return decidedResponse((await this.store.get(`approval-decision:${id}`)) ?? decision, 409);
    this.log(`approval ${decision === 'approve' ? 'approved' : 'declined'} on the page`);
    return decidedResponse(decision, 200);
  }
}

function noticeResponse(status: number, title: string, text: string, extra: Record<string, string> = {}): Response {
  return html(status, noticePage(title, text), extra);
}

function decidedResponse(decision: string, status: number): Response {
  return decision === 'approve'
    ? noticeResponse(status, 'Approved', 'Go back to the assistant and let it repeat the call: it runs once.')
    : noticeResponse(status, 'Declined', 'Nothing will run. The assistant is told so when it repeats the call.');
}
