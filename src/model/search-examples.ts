/**
 * The example tasks `search_tools` shows a model (model/search.ts), in the words of this server's own tools: a model
 * that reads "create a customer" and "list invoices" learns how to ask and what the server is about, where fixed
 * examples from another domain would mislead it. Chosen from the titles (or, without one, the names) of the tools:
 * for each kind of task, the shortest of the first verb any tool starts with (`create_` before `add_`), ties by name,
 * so the same tools always give the same examples.
 */
import { compareText } from '../util/compare.js';
import type { ToolModel } from './types.js';

/** Each example's kind of task, by the verbs a name starts with, in order: one that makes something, one that reads. */
const kinds: readonly (readonly string[])[] = [
  ['create', 'add', 'send', 'post', 'start'],
  ['list', 'search', 'get', 'find'],
];
/** Longer titles make poor examples of what to type. */
const maxChars = 40;

/** Up to two example tasks, each as a model might type it (`create a gist`). */
export function searchExamples(tools: readonly Pick<ToolModel, 'name' | 'title'>[]): string[] {
  const said = tools
    .map((tool) => ({ name: tool.name, task: taskOf(tool) }))
    .filter(({ task }) => task.length > 0 && task.length <= maxChars)
    .sort((a, b) => a.task.length - b.task.length || compareText(a.name, b.name));
  const chosen: string[] = [];
  for (const verbs of kinds)
    for (const verb of verbs) {
      const found = said.find(({ name, task }) => name.split('_')[0] === verb && !chosen.includes(task));
      if (found === undefined) continue;
      chosen.push(found.task);
      break;
    }
  for (const { task } of said) if (chosen.length < 2 && !chosen.includes(task)) chosen.push(task);
  return chosen;
}

/** A tool's title (or its name's words) as a task: lower case first, without a closing period, on one line. */
function taskOf(tool: Pick<ToolModel, 'name' | 'title'>): string {
  const text = (tool.title ?? tool.name.replace(/[_.-]+/g, ' ')).replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return text.length === 0 ? '' : `${text[0]?.toLowerCase() ?? ''}${text.slice(1)}`;
}
