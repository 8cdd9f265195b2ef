/**
 * How the dev console shows a result: a tool's structured content beside its content (text as it is, an image,
 * audio or embedded resource as its type and size), a resource's contents, a prompt's messages. Text only, as the
 * page's CSP and the server's untrusted text require.
 */
import { h } from './console-dom.js';

const pane = (title, pre) => h('div', { class: 'pane' }, h('h4', {}, title), pre);
export const list = (value) => (Array.isArray(value) ? value : []);
/** The bytes a base64 string holds. */
const bytesOf = (base64) =>
  typeof base64 === 'string' ? Math.floor((base64.length * 3) / 4) - (base64.match(/=*$/)?.[0].length ?? 0) : 0;
/** A content block as a line of text: text as it is, anything else as what it is and its size. */
export function blockText(item) {
  if (item?.type === 'text') return String(item.text);
  if (item?.type === 'resource') {
    const { uri, mimeType, text, blob } = item.resource ?? {};
    return text ?? `[resource ${mimeType ?? 'binary'}, ${bytesOf(blob)} bytes: ${uri}]`;
  }
  if (item?.type === 'resource_link') return `[link ${item.uri}]`;
  return `[${item?.type} ${item?.mimeType ?? ''}, ${bytesOf(item?.data)} bytes]`;
}

export const views = {
  tool: (result) => {
    const structured = result.structuredContent === undefined ? '—' : JSON.stringify(result.structuredContent, null, 2);
    const text = list(result.content).map(blockText);
    return h(
      'div',
      { class: 'panes' },
      pane('structuredContent', h('pre', { class: 'structured', tabindex: 0 }, structured)),
      pane('content', h('pre', { class: 'text', tabindex: 0 }, text.join('\n'))),
    );
  },
  read: (result) => {
    const text = list(result.contents).map((item) => item?.text ?? `[${item?.mimeType ?? 'binary'} content]`);
    return h('pre', { class: 'contents', tabindex: 0 }, text.join('\n\n'));
  },
  prompt: (result) => {
    const text = list(result.messages).map((message) => {
      const content = message?.content;
      return `${message?.role}: ${content?.type === 'text' ? content.text : JSON.stringify(content)}`;
    });
    return h('pre', { class: 'messages', tabindex: 0 }, text.join('\n\n'));
  },
};
