import { describe, expect, it } from 'vitest';
import { hostnameOf } from '../../templates/runtime/http-request.gen.js';

// The Host header as an RFC 9110 authority (templates/runtime/http.gen.ts): the host name it names, or null
// for a value a URL parser would read as something other than its text.
describe('hostnameOf', () => {
  it('reads a host with or without a port, lowercased, IPv6 in brackets', () => {
    const valid = [
      'localhost',
      'LocalHost:3000',
      '127.0.0.1:5510',
      '[::1]',
      '[::1]:3000',
      'localhost:80',
      'mcp.example.com:',
    ];
    expect(valid.map(hostnameOf)).toEqual([
      'localhost',
      'localhost',
      '127.0.0.1',
      '[::1]',
      '[::1]',
      'localhost',
      'mcp.example.com',
    ]);
  });

  it('refuses userinfo, a path, query or fragment, a bad port and anything the parser rewrites', () => {
    const invalid = [
      '127.0.0.1:5510@evil.com',
      'localhost:1@evil.com',
      'user:pass@localhost',
      'localhost/mcp',
      'localhost?x',
      'localhost#x',
      'localhost\\evil.com',
      'localhost:99999',
      'localhost:-1',
      'localhost:x',
      'localhost:03000',
      '0x7f.1',
      '2130706433',
      'local%68ost',
      '[0:0:0:0:0:0:0:1]',
      'local host',
      '',
    ];
    expect(invalid.map((host) => [host, hostnameOf(host)])).toEqual(invalid.map((host) => [host, null]));
  });
});
