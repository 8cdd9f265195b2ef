/**
 * A small parser for the Mermaid flowchart subset the design report emits
 * (`flowchart LR`, rectangle and stadium nodes with quoted labels, labelled
 * arrows). It follows Mermaid's flowchart grammar for these forms and is
 * stricter in one way: every edge must join declared nodes, so a typo in an id
 * fails instead of drawing a stray box.
 */
export interface Flowchart {
  readonly direction: string;
  readonly nodes: ReadonlyMap<string, { label: string; shape: 'rect' | 'stadium' }>;
  readonly edges: readonly { from: string; to: string; label: string }[];
}

const id = '[A-Za-z_][A-Za-z0-9_]*';
const label = '[^"\\n]*';
const rect = new RegExp(`^(${id})\\["(${label})"\\]$`);
const stadium = new RegExp(`^(${id})\\(\\["(${label})"\\]\\)$`);
const edge = new RegExp(`^(${id}) -->\\|([^|\\n]+)\\| (${id})$`);

/** Parses `text` or throws with the line that does not fit. */
export function parseFlowchart(text: string): Flowchart {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const header = /^flowchart (LR|RL|TB|TD|BT)$/.exec(lines[0] ?? '');
  if (header === null) throw new Error(`line 1: expected "flowchart <direction>", got ${JSON.stringify(lines[0])}`);
  const nodes = new Map<string, { label: string; shape: 'rect' | 'stadium' }>();
  const edges: { from: string; to: string; label: string }[] = [];
  lines.slice(1).forEach((raw, i) => {
    const line = raw.trim();
    const node = rect.exec(line) ?? stadium.exec(line);
    if (node !== null) {
      if (nodes.has(node[1] ?? '')) throw new Error(`line ${i + 2}: node ${node[1]} declared twice`);
      nodes.set(node[1] ?? '', { label: node[2] ?? '', shape: line.includes('(["') ? 'stadium' : 'rect' });
      return;
    }
    const arrow = edge.exec(line);
    if (arrow !== null) {
      for (const end of [arrow[1], arrow[3]])
        if (!nodes.has(end ?? '')) throw new Error(`line ${i + 2}: edge uses undeclared node ${end}`);
      edges.push({ from: arrow[1] ?? '', label: arrow[2] ?? '', to: arrow[3] ?? '' });
      return;
    }
    throw new Error(`line ${i + 2}: not a node or an edge: ${JSON.stringify(line)}`);
  });
  return { direction: header[1] ?? '', nodes, edges };
}

/** The bodies of every ```mermaid block in a Markdown text. */
export function mermaidBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```mermaid\n([\s\S]*?)\n```$/gm)].map((m) => m[1] ?? '');
}
