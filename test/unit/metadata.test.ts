import { describe, expect, it } from 'vitest';
import { discoverContract } from '../../src/emit/registry/discover.js';
import { registryData } from '../../src/emit/registry/data.js';
import { metadataTable } from '../../src/emit/report/view-metadata.js';
import { toolsetDigest, wireTools } from '../../src/model/toolset.js';
import { normalizeManifest } from '../../src/normalize/index.js';
import { isDateTime } from '../../src/validate/rules/metadata.js';
import { expectedLists } from '../../src/verify/expected.js';
import { promptView, resourceView, toolView } from '../../src/verify/semantic.js';
import { validated } from '../support/manifests.js';

// Icons and resource annotations from the manifest to the model, the registry, verify's expectations and
// DESIGN.md. Each bad value is a fixture under test/fixtures/invalid/ (icon-src-unsafe, date-time-format,
// resource-size-template, metadata-shape), checked with its full diagnostic text by invalid.test.ts.

const manifest = `mcpGen: 1
server:
  name: tiny
  version: 1.0.0
  icons: [{ theme: dark, src: "https://example.com/a.svg", sizes: [any], mimeType: image/svg+xml }]
tools:
  ping:
    description: Answers pong.
    input: { type: object }
    icons: [{ src: "https://example.com/ping.png" }, { src: "data:image/png;base64,iVBORw0KGgo=" }]
  plain: { description: No icons., input: { type: object } }
resources:
  guide:
    uri: "notes://guide"
    annotations: { lastModified: "2026-07-28T09:00:00+02:00", audience: [assistant, user], priority: 1 }
    size: 0
  page: { uriTemplate: "notes://pages/{id}", icons: [{ src: "https://example.com/p.webp" }] }
prompts:
  greet: { messages: [{ role: user, text: Hi. }], icons: [{ src: "https://example.com/g.jpg" }] }
`;
const model = normalizeManifest(validated(manifest));

describe('normalize', () => {
  it('keeps icons in declared order, each with MCP key order; none is an empty list', () => {
    expect(model.server.icons.map((i) => Object.keys(i))).toEqual([['src', 'mimeType', 'sizes', 'theme']]);
    expect(model.tools.map((t) => t.icons.map((i) => i.src))).toEqual([
      ['https://example.com/ping.png', 'data:image/png;base64,iVBORw0KGgo='],
      [],
    ]);
    expect(model.prompts[0]?.icons).toEqual([{ src: 'https://example.com/g.jpg' }]);
  });

  it('keeps annotations as written in MCP key order, size 0 as 0, and null where none is declared', () => {
    const [guide, page] = model.resources;
    expect(guide?.name).toBe('guide');
    expect(guide?.annotations).toEqual({
      audience: ['assistant', 'user'],
      priority: 1,
      lastModified: '2026-07-28T09:00:00+02:00',
    });
    expect(Object.keys(guide?.annotations ?? {})).toEqual(['audience', 'priority', 'lastModified']);
    expect([guide?.size, page?.size, page?.annotations]).toEqual([0, null, null]);
  });
});

describe('registry, discovery and verify', () => {
  it('carries icons in each listing, no key where there are none', () => {
    const data = registryData(model);
    expect(data.tools.map((t) => t.listing.icons?.length ?? 'none')).toEqual([2, 'none']);
    expect(data.tools.map((t) => 'icons' in t.listing)).toEqual([true, false]);
    expect(
      data.resources.map((r) => [r.name, r.listing.icons, r.listing.annotations?.priority, r.listing.size]),
    ).toEqual([
      ['guide', undefined, 1, 0],
      ['page', [{ src: 'https://example.com/p.webp' }], undefined, undefined],
    ]);
    expect(data.prompts[0]?.listing.icons).toEqual([{ src: 'https://example.com/g.jpg' }]);
  });

  it('puts the server icons in serverInfo, after the description', () => {
    expect(discoverContract(model)._meta['io.modelcontextprotocol/serverInfo']).toEqual({
      name: 'tiny',
      version: '1.0.0',
      icons: [{ src: 'https://example.com/a.svg', mimeType: 'image/svg+xml', sizes: ['any'], theme: 'dark' }],
    });
    const bare = normalizeManifest(validated('mcpGen: 1\nserver: { name: tiny, version: 1.0.0 }\n'));
    expect(discoverContract(bare)._meta['io.modelcontextprotocol/serverInfo']).toEqual({
      name: 'tiny',
      version: '1.0.0',
    });
  });

  it('counts tool icons in the toolset digest, and only when declared', () => {
    const tools = wireTools(model);
    expect(tools.map((t) => 'icons' in t)).toEqual([true, false]);
    const without = tools.map(({ icons: _icons, ...rest }) => rest);
    expect(toolsetDigest(tools)).not.toBe(toolsetDigest(without));
  });

  it('expects the declared metadata in the lists verify compares', () => {
    const lists = expectedLists(model);
    expect(lists.resources).toEqual([
      {
        name: 'guide',
        uri: 'notes://guide',
        annotations: { audience: ['assistant', 'user'], priority: 1, lastModified: '2026-07-28T09:00:00+02:00' },
        size: 0,
      },
    ]);
    expect(lists.templates).toEqual([
      { name: 'page', uriTemplate: 'notes://pages/{id}', icons: [{ src: 'https://example.com/p.webp' }] },
    ]);
    expect(lists.prompts[0]?.icons).toEqual([{ src: 'https://example.com/g.jpg' }]);
  });
});

describe('verify', () => {
  it('compares icons, annotations and size instead of setting them aside as undeclarable', () => {
    const icons = [{ src: 'https://example.com/a.png' }];
    const tool = toolView({ name: 't', description: 'd', inputSchema: { type: 'object' }, icons });
    expect([tool.view.icons, tool.undeclarable]).toEqual([icons, []]);
    const resource = resourceView({ name: 'r', uri: 'x://r', icons, annotations: { priority: 1 }, size: 3 });
    expect([resource.view, resource.undeclarable]).toEqual([
      { name: 'r', icons, annotations: { priority: 1 }, size: 3 },
      [],
    ]);
    expect(promptView({ name: 'p', icons }).view).toEqual({ icons });
  });
});

describe('isDateTime', () => {
  it.each([
    ['2026-07-28T09:00:00Z', true],
    ['2026-07-28T09:00:00.123456789-05:30', true],
    ['2028-02-29T00:00:00Z', true],
    ['2026-02-29T00:00:00Z', false],
    ['2026-13-01T00:00:00Z', false],
    ['2026-07-28T09:60:00Z', false],
    ['2026-07-28T09:00:00+24:00', false],
    ['2026-07-28 09:00:00Z', false],
    ['2026-07-28T09:00Z', false],
    ['July 28, 2026', false],
  ])('%s is %s', (text, valid) => {
    expect(isDateTime(text)).toBe(valid);
  });
});

describe('DESIGN.md table', () => {
  it('is empty without any metadata', () => {
    expect(metadataTable(normalizeManifest(validated('mcpGen: 1\nserver: { name: tiny, version: 1.0.0 }\n')))).toBe('');
  });

  it('prints one row per item with metadata, data: URIs shortened to their type and length', () => {
    expect(metadataTable(model).split('\n')).toEqual([
      '| kind | name | icons | annotations | size |',
      '| --- | --- | --- | --- | --- |',
      '| server | `tiny` | `https://example.com/a.svg` (image/svg+xml, any, dark) | — | — |',
      '| tool | `ping` | `https://example.com/ping.png`; `data:image/png;base64,… (34 characters)` | — | — |',
      '| resource | `guide` | — | audience: assistant, user; priority: 1; ' +
        'lastModified: 2026-07-28T09:00:00+02:00 | 0 bytes |',
      '| resource template | `page` | `https://example.com/p.webp` | — | — |',
      '| prompt | `greet` | `https://example.com/g.jpg` | — | — |',
    ]);
  });

  it('prints a source as text: no image, link, HTML or extra cell', () => {
    const hostile = normalizeManifest(
      validated(`mcpGen: 1
server:
  name: tiny
  version: 1.0.0
  icons: [{ src: "https://example.com/x.png?a=<img/src=x/onerror=alert(1)>|\`](javascript:alert(1))" }]
`),
    );
    const row = metadataTable(hostile).split('\n')[2];
    expect(row).toBe(
      '| server | `tiny` | ``https://example.com/x.png?a=<img/src=x/onerror=alert(1)>' +
        '\\|`](javascript:alert(1))`` | — | — |',
    );
  });
});
