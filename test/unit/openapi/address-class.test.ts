/** Which addresses a description `$ref` may not reach: IPv4, IPv6 and the forms URL parsing turns into them. */
import { describe, expect, it } from '@jest/globals';
import { isLocalName, nonPublicKind } from '../../../src/openapi/address-class.js';

/** The host of `http://<host>/` as WHATWG URL parsing (and so got) sees it. */
const hostOf = (host: string): string => new URL(`http://${host}/`).hostname;

describe('nonPublicKind', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.3.4', 'a loopback address'],
    ['0.0.0.0', 'an unspecified ("this network") address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT (shared) address'],
    ['100.127.255.255', 'a carrier-grade NAT (shared) address'],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['255.255.255.255', 'a reserved or broadcast address'],
    ['::1', 'a loopback address'],
    ['[::1]', 'a loopback address'],
    ['0:0:0:0:0:0:0:1', 'a loopback address'],
    ['::', 'an unspecified address'],
    ['fc00::1', 'a private (unique local) address'],
    ['fd12:3456:789a::1', 'a private (unique local) address'],
    ['fe80::1', 'a link-local address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['febf::1', 'a link-local address'],
    ['ff02::1', 'a multicast address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:7f00:1', 'a loopback address'],
    ['::ffff:a9fe:a9fe', 'a link-local address'],
    ['::ffff:10.0.0.1', 'a private address'],
    ['::127.0.0.1', 'a loopback address'],
    ['64:ff9b::169.254.169.254', 'a link-local address'],
  ])('classifies %s as %s', (address, kind) => {
    expect(nonPublicKind(address)).toBe(kind);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.15.255.255', '172.32.0.0', '100.63.255.255', '100.128.0.0', '169.253.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2001:db8::1'])(
    'leaves the public address %s alone',
    (address) => {
      expect(nonPublicKind(address)).toBeUndefined();
    },
  );

  it('leaves host names alone: they are judged by what they resolve to', () => {
    expect(nonPublicKind('example.com')).toBeUndefined();
    expect(nonPublicKind('localhost')).toBeUndefined();
  });

  it.each([
    ['2130706433', 'a loopback address'],
    ['0x7f000001', 'a loopback address'],
    ['0x7f.1', 'a loopback address'],
    ['0177.0.0.1', 'a loopback address'],
    ['127.1', 'a loopback address'],
    ['0', 'an unspecified ("this network") address'],
    ['2852039166', 'a link-local address'],
    ['0xa9.0xfe.0xa9.0xfe', 'a link-local address'],
    ['[::ffff:127.0.0.1]', 'a loopback address'],
    ['[0:0:0:0:0:ffff:a9fe:a9fe]', 'a link-local address'],
    ['[::1]', 'a loopback address'],
  ])('classifies the URL host %s, which URL parsing normalises, as %s', (host, kind) => {
    expect(nonPublicKind(hostOf(host))).toBe(kind);
  });

  it('sees 2130706433 as 127.0.0.1 once URL parsing has normalised it', () => {
    expect(hostOf('2130706433')).toBe('127.0.0.1');
  });
});

describe('isLocalName', () => {
  it.each([
    ['localhost', true],
    ['LOCALHOST', true],
    ['localhost.', true],
    ['api.localhost', true],
    ['localhost.example.com', false],
    ['example.com', false],
  ])('%s names this machine: %s', (name, expected) => {
    expect(isLocalName(name)).toBe(expected);
  });
});
