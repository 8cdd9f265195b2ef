/**
 * What an OpenAPI operation becomes as a tool, decided from its method and
 * its name: a verb-noun name (`list_pets`, `get_pet`, `update_issue`), all
 * four hints, approval, and the TODOs where the spec cannot tell.
 */
import { mutatingVerbs } from '../model/verbs.js';
import { fitWords, manifestName, snakeWords } from './names.js';

export type HttpMethod = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'options' | 'trace';

/** Verbs that read: a POST named with one of these is drafted read-only (with a TODO to confirm). */
const readVerbs = new Set([
  'get',
  'list',
  'search',
  'find',
  'query',
  'lookup',
  'retrieve',
  'show',
  'describe',
  'view',
  'fetch',
  'read',
  'count',
]);
/** Words that start a name as its verb; the first one found in an operationId is moved to the front. */
const verbs = new Set([
  ...mutatingVerbs.map((v) => v.slice(0, -1)),
  ...readVerbs,
  'create',
  'add',
  'set',
  'check',
  'download',
  'upload',
  'replace',
  'merge',
  'mark',
  'enable',
  'disable',
  'start',
  'stop',
  'approve',
  'render',
  'validate',
  'verify',
  'test',
  'block',
  'unblock',
  'lock',
  'unlock',
  'star',
  'unstar',
  'follow',
  'unfollow',
  'install',
  'uninstall',
  'register',
  'rerun',
  'run',
  'restore',
  'accept',
  'decline',
  'dismiss',
  'review',
  'submit',
  'trigger',
  'generate',
  'compare',
  'edit',
  'modify',
  'patch',
  'put',
  'fork',
  'sync',
  'transfer',
  'redeliver',
  'ping',
  'request',
  'convert',
  'assign',
  'unassign',
  'subscribe',
  'unsubscribe',
]);

/**
 * The tool name of an operation, verb first: `getPetById` -> `get_pet_by_id`,
 * GitHub's `issues/update` -> `update_issues`; with no operationId, or none
 * with a verb, from the method and the path: `GET /pets` -> `list_pets`,
 * `GET /pets/{id}` -> `get_pets`, `POST /pets` -> `create_pets`.
 */
export function operationName(method: HttpMethod, route: string, operationId: string | undefined): string {
  const fromId = operationId === undefined ? [] : snakeWords(operationId);
  const words = /^[a-z]/.test(fromId[0] ?? '') ? fromId : fromId.length === 0 ? [] : ['op', ...fromId];
  // An id parameter's words (`company_id`) in a long name echo the path; one word (`repo`, `org`) is a noun too.
  const optional = (route.match(/\{[^}]*\}/g) ?? [])
    .map((param) => snakeWords(param))
    .filter((run) => run.length > 1 && /^ids?$/.test(run[run.length - 1] as string));
  const at = words.findIndex((w) => verbs.has(w));
  if (at >= 0) {
    const named = [words[at] as string, ...words.slice(0, at), ...words.slice(at + 1)];
    // A GET named like a change (`archive_list`) would read as one to a reviewer and to the design lint.
    const reads = method === 'get' || method === 'head';
    return fitWords(reads && mutatingVerbs.includes(`${named[0]}_`) ? ['get', ...named] : named, optional);
  }
  const nouns = words.length > 0 ? words : pathNouns(route);
  const collection = !/\}\/?$/.test(route);
  const verb =
    method === 'get' || method === 'head'
      ? collection
        ? 'list'
        : 'get'
      : method === 'post'
        ? 'create'
        : method === 'delete'
          ? 'delete'
          : method === 'put' || method === 'patch'
            ? 'update'
            : method;
  return fitWords([verb, ...nouns], optional);
}

/** The literal path segments as snake_case words: `/users/{id}/pets` -> `users_pets`. */
function pathNouns(route: string): string[] {
  const literal = route
    .split('/')
    .filter((s) => s !== '' && !s.startsWith('{'))
    .join(' ');
  const name = manifestName(literal, '');
  return name === '' ? ['root'] : name.split('_');
}

/** The hints, approval and review notes of an operation named `name`. */
export interface OperationPolicy {
  readonly annotations: Record<string, boolean>;
  readonly approval: 'confirm' | null;
  /** TODO comments for the tool's annotations: what the spec cannot tell. */
  readonly todos: readonly string[];
}

/**
 * Every operation reaches the API, an outside system (openWorldHint true), so
 * every one that is not read-only asks for approval: GET and HEAD read;
 * DELETE destroys and repeats harmlessly; PUT replaces (destructive,
 * idempotent); PATCH changes (destructive); a POST is judged by its name's
 * verb: a read (`search_`) stays read-only, a mutating verb (`delete_`,
 * `send_`, `cancel_`) is destructive, anything else creates.
 */
export function operationPolicy(method: HttpMethod, name: string): OperationPolicy {
  const verb = name.split('_')[0] ?? '';
  const hints = (readOnly: boolean, destructive: boolean, idempotent: boolean) => ({
    readOnlyHint: readOnly,
    destructiveHint: destructive,
    idempotentHint: idempotent,
    openWorldHint: true,
  });
  if (method === 'get' || method === 'head' || method === 'options' || method === 'trace')
    return { annotations: hints(true, false, true), approval: null, todos: [] };
  if (method === 'delete') return { annotations: hints(false, true, true), approval: 'confirm', todos: [] };
  if (method === 'put')
    return {
      annotations: hints(false, true, true),
      approval: 'confirm',
      todos: [
        'TODO hints: PUT replaces what exists, so it is destructive; set destructiveHint: false if nothing is lost',
      ],
    };
  if (method === 'patch')
    return {
      annotations: hints(false, true, false),
      approval: 'confirm',
      todos: [
        'TODO hints: PATCH changes what exists, so it is destructive; set destructiveHint: false ' +
          'if nothing is lost, idempotentHint: true if applying it twice changes nothing more',
      ],
    };
  if (readVerbs.has(verb))
    return {
      annotations: hints(true, false, true),
      approval: null,
      todos: [`TODO hints: a POST named "${verb}" is drafted read-only; set readOnlyHint: false if it changes data`],
    };
  if (mutatingVerbs.includes(`${verb}_`))
    return {
      annotations: hints(false, true, false),
      approval: 'confirm',
      todos: [`TODO hints: a POST named "${verb}" is drafted destructive; the spec cannot tell what it undoes`],
    };
  return {
    annotations: hints(false, false, false),
    approval: 'confirm',
    todos: [
      'TODO hints: a POST that creates; set destructiveHint: true if it also overwrites or deletes',
      'TODO idempotency: a create that a client retries after a timeout may run twice; add ' +
        '"idempotency: key" if the API accepts an idempotency key, or idempotentHint: true if a repeat is harmless',
    ],
  };
}

/** A title from the name when the spec gives no summary: `list_pets` -> "List pets". */
export function titleFromName(name: string): string {
  const text = name.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
