/** The URL policy's static part: address classes and what each purpose refuses before connecting. */
import { describe, expect, test } from 'vitest';
import { checkUrl, classifyAddress, urlPolicy } from '../../src/net/index.ts';

describe('classifyAddress', () => {
  test.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.10', 'private'],
    ['100.64.1.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['ff02::1', 'reserved'],
    // IPv6 forms that reach an IPv4 host are that host.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:7f00:1::', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['not an address', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('checkUrl', () => {
  const workflow = urlPolicy('workflow');
  const document = urlPolicy('document');

  test.each([
    ['file:///etc/passwd', /uses file; only http and https/],
    ['gopher://example.com/', /uses gopher/],
    ['data:text/plain,hi', /uses data/],
    ['http://user:pass@example.com/', /carries credentials/],
    ['https://token@example.com/', /carries credentials/],
    ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a metadata address/],
    ['http://[fd00:ec2::254]/', /is a metadata address/],
    [
      'http://127.0.0.1:8080/',
      /127\.0\.0\.1 is a loopback address \(allow with urlPolicy\.allowLoopback\)/,
    ],
    ['http://2130706433/', /127\.0\.0\.1 is a loopback address/],
    ['http://0x7f.1/', /127\.0\.0\.1 is a loopback address/],
    ['http://[::ffff:127.0.0.1]/', /is a loopback address/],
    ['http://[::ffff:169.254.169.254]/', /is a metadata address/],
    ['http://0.0.0.0:3000/', /0\.0\.0\.0 is an unspecified address/],
    ['http://169.254.10.10/', /is a link-local address/],
    ['not a url', /not a valid absolute URL/],
  ])('a workflow URL %s is refused', (url, reason) => {
    const result = checkUrl(url, workflow);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  test('workflow URLs may reach private networks; document URLs may not', () => {
    expect(checkUrl('http://10.0.0.5/check', workflow).ok).toBe(true);
    expect(checkUrl('http://10.0.0.5/doc.pdf', document)).toEqual({
      ok: false,
      reason: '10.0.0.5 is a private address (allow with urlPolicy.allowPrivate or allowHosts)',
    });
    expect(checkUrl('https://example.com/a.pdf', document).ok).toBe(true);
  });

  test('a model provider may be on the same host, never on a metadata address', () => {
    const provider = urlPolicy('provider');
    expect(checkUrl('http://127.0.0.1:11434/v1', provider).ok).toBe(true);
    expect(checkUrl('http://169.254.169.254/v1', provider).ok).toBe(false);
  });

  test('allowLoopback, allowHosts (names, suffixes, CIDR) and denyHosts', () => {
    expect(checkUrl('http://127.0.0.1:9/', urlPolicy('workflow', { allowLoopback: true })).ok).toBe(
      true,
    );
    const lists = urlPolicy('document', {
      allowHosts: ['10.1.0.0/16', 'files.internal', '*.corp.example'],
      denyHosts: ['bad.corp.example', '10.1.9.0/24'],
    });
    expect(checkUrl('http://10.1.2.3/x', lists).ok).toBe(true);
    expect(checkUrl('http://10.2.2.3/x', lists).ok).toBe(false);
    expect(checkUrl('http://10.1.9.3/x', lists)).toEqual({
      ok: false,
      reason: '10.1.9.3 is on the deny list',
    });
    expect(checkUrl('https://a.corp.example/x', lists).ok).toBe(true);
    expect(checkUrl('https://bad.corp.example/x', lists)).toEqual({
      ok: false,
      reason: 'bad.corp.example is on the deny list',
    });
    expect(() => urlPolicy('workflow', { allowHosts: ['http://x/'] })).toThrow(/allowHosts/);
  });
});
