import { describe, expect, it } from 'vitest';

// The dev console's content pane (templates/console/console-views.js): a block that is not text (a bound tool's
// image, audio or file answer) is shown as its type and size, never dropped; base64 sizes are exact.

type BlockText = (item: unknown) => string;
const views = '../../templates/console/console-views.js';

describe('dev console: content blocks', () => {
  it('shows text as it is, and images, audio and embedded files as their type, size and URI', async () => {
    const { blockText } = (await import(views)) as { blockText: BlockText };
    const blocks = [
      { type: 'text', text: 'id,name\n1,Ana' },
      { type: 'image', data: 'iVBORw==', mimeType: 'image/png' },
      { type: 'audio', data: 'AQID', mimeType: 'audio/mpeg' },
      {
        type: 'resource',
        resource: { uri: 'https://api.example.com/q/1/pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' },
      },
      { type: 'resource', resource: { uri: 'file:///notes.txt', text: 'a note' } },
      { type: 'resource_link', uri: 'https://api.example.com/files/7', name: 'report' },
    ];
    expect(blocks.map(blockText)).toEqual([
      'id,name\n1,Ana',
      '[image image/png, 4 bytes]',
      '[audio audio/mpeg, 3 bytes]',
      '[resource application/pdf, 5 bytes: https://api.example.com/q/1/pdf]',
      'a note',
      '[link https://api.example.com/files/7]',
    ]);
  });
});
