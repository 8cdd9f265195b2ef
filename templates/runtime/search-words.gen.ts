/**
 * The words of tasks and tools for `search_tools` (search-index.gen.ts): splitting, stopwords and stemming, the
 * values a task names (read as values, not words), verb synonyms read in a task's first word and concepts read
 * anywhere. Pure: it reads text, nothing else.
 */
/**
 * Verbs a task is said with, each group meaning one action (its first verb, as APIs name it); a query word also
 * matches the others (`weightOf`). "set up" is read as one word (`terms`).
 */
const verbGroups = [
  'create add new make open post insert file start register store publish setup enable activate give grant',
  'delete remove destroy erase drop clear discard unset disable deactivate revoke',
  'list all enumerate browse index',
  // Closing and reopening change a thing's state: APIs do it with an update.
  'update edit modify change set patch rename replace close reopen',
  'get fetch read show view retrieve see look describe inspect details',
  'search find query lookup filter',
  'cancel stop abort halt',
  'send post deliver publish',
  'download export fetch',
  'upload import attach',
  'check verify test validate',
].map((group) => group.split(' '));

/** Words that mean one thing wherever a task says them (not actions): a word also matches the others. */
const wordGroups = [
  // The caller's own things: APIs say "authenticated user", "current user" or "me" where people say "my".
  'authenticated my me mine own current',
  'latest newest recent last',
  // What is left of a quota is its limit: "how many calls do I have left".
  'limit quota remaining left throttle',
  'reaction emoji thumbs upvote',
  'permission access role',
  'member everyone everybody people',
  // Source control: a branch is a ref.
  'ref branch',
].map((group) => group.split(' '));

/**
 * Short forms (as stems) read as the words they stand for, at full weight. A Map: any word may be looked up, and an
 * object would answer "constructor" with its own.
 */
const shortForms: ReadonlyMap<string, readonly string[]> = new Map([
  ['repo', ['repository']],
  ['org', ['organization']],
  ['pr', ['pull', 'request']],
]);

/**
 * What a synonym's match counts: APIs name actions with the first verb of a group (create, delete, list, update, get,
 * ...), so it counts more than the others, which match only where an API chose that word.
 */
export const weightOf = (synonym: string): number => (heads.has(synonym) ? 0.7 : 0.35);

/** Words that say nothing about which tool a task needs. */
const stopwords = new Set(
  (
    'a an the to of for in on at by with from and or i is are be been this that it its as into your you we our ' +
    'us can could do does how what which who whom want would like please some any there their them he she his her ' +
    'via using use so if then than also just about has have had many much'
  ).split(' '),
);

/** A task that asks a question ("is main protected?", "who starred it?") asks to read: get, list or search. */
export const question = /^\W*(is|are|was|were|has|have|had|does|do|did|who|what|which|where|when|why|how|can)\b/i;
/** A yes-or-no question ("is dkumar a member?") may also ask to check: APIs answer those with a check. */
export const yesNo = /^\W*(is|are|was|were|has|have|had|does|do|did|can)\b/i;

/**
 * A task without the values it names: quoted text, what follows "named" or "called", `owner/repo` and paths, and
 * versions say which thing to act on, not which tool acts ("acme/site" is no site, "facebook/react" no reaction, "a
 * repository named billing-reports" no billing). A URL, an email address and a file name are read as the kind of
 * thing they are.
 */
export function withoutValues(task: string): string {
  return task
    .replace(/\b(named|called)\s+(["'\u2018\u201c][^"'\u2019\u201d]*["'\u2019\u201d]|\S+)/gi, ' ')
    .replace(/\bhttps?:\/\/\S+/g, ' url ')
    .replace(/(^|\s)(["'\u2018\u201c])[^"'\u2019\u201d]*["'\u2019\u201d](?=$|[\s.,;:!?)])/g, ' ')
    .replace(/\S+@\S+/g, ' email ')
    .replace(/[\w.-]+(\/[\w.-]+)+/g, ' ')
    .replace(/\bv?\d+(\.\d+)+\b/g, ' ')
    .replace(/\b[\w-]+\.[a-z]{1,5}\b/gi, ' file ');
}

/** The stems of the words seen, up to a bound: an index reads the same words many times. */
const stems = new Map<string, string>();

/**
 * A word's stem: plural, -ing, -ed, -ion and -ship endings and a final e dropped, so "created", "creates", "creation"
 * and "create" meet, as do "invite" and "invitation", and "member" and "membership".
 */
export function stem(word: string): string {
  const known = stems.get(word);
  if (known !== undefined) return known;
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  const bare =
    w.length > 5 && w.endsWith('ing') ? w.slice(0, -3) : w.length > 4 && w.endsWith('ed') ? w.slice(0, -2) : '';
  if (bare !== '') w = bare.length >= 5 && /([^aeiouylsz])\1$/.test(bare) ? bare.slice(0, -1) : bare;
  // What an action makes: "invitation", "protection" and "deletion" meet "invite", "protect" and "delete".
  if (w.length >= 10 && w.endsWith('ation')) w = w.slice(0, -5);
  else if (w.length >= 7 && /[st]ion$/.test(w)) w = w.slice(0, -3);
  // Who does or receives it: "reviewer" and "assignee" meet "review" and "assign".
  if (w.length >= 7 && /(er|ee)$/.test(w)) w = w.slice(0, -2);
  // What a state of it is called: "membership" and "ownership" meet "member" and "owner".
  if (w.length >= 8 && w.endsWith('ship')) w = w.slice(0, -4);
  const result = w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
  if (stems.size < 100_000) stems.set(word, result);
  return result;
}

/** The words of `text`: split at case changes and at anything but letters and digits, lower-cased. */
export function words(text: string): string[] {
  return (
    text
      .replace(/https?:\/\/\S*/g, ' ')
      .replace(/\bset[\s-]+up\b/gi, 'setup')
      // A plural acronym ("PRs", "URLs") is the acronym, not a case change before "s".
      .replace(/\b([A-Z]{2,})s\b/g, '$1')
      .replace(/([a-z\d])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z\d]+/)
  );
}

/** The stems of `text`, stopwords, numbers and commit hashes out, short forms read as the words they stand for. */
export function terms(text: string): string[] {
  const found: string[] = [];
  for (const word of words(text)) {
    // Numbers and commit hashes are values a task names, not words a tool is described with.
    if (word.length < 2 || stopwords.has(word) || /^\d+$|^(?=.*\d)[a-f\d]{7,40}$/.test(word)) continue;
    const own = stem(word);
    const long = shortForms.get(own);
    if (long === undefined) found.push(own);
    else for (const part of long) found.push(stem(part));
  }
  return found;
}

/** Each stem's synonyms, from both kinds of groups, and the group it counts in (its first group's first word). */
export const synonyms = new Map<string, Set<string>>();
export const groupOf = new Map<string, string>();
/** The groups of actions, read with synonyms only in a task's first word; `wordGroups` are read anywhere. */
export const verbHeads = new Set(verbGroups.map((group) => stem(group[0] ?? '')));
const heads = new Set([...verbGroups, ...wordGroups].map((group) => stem(group[0] ?? '')));
export const reading = ['get', 'list', 'search'];
for (const group of [...verbGroups, ...wordGroups])
  for (const word of group) {
    const own = stem(word);
    const known = synonyms.get(own) ?? new Set<string>();
    for (const other of group) if (stem(other) !== own) known.add(stem(other));
    synonyms.set(own, known);
    if (!groupOf.has(own)) groupOf.set(own, stem(group[0] ?? word));
  }

/** The action a stem says: its verb group's first verb, or itself. */
export const actionOf = (term: string): string => {
  const group = groupOf.get(term);
  return group !== undefined && verbHeads.has(group) ? group : term;
};
