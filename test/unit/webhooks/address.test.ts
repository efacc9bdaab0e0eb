import { describe, expect, it } from 'vitest';
import {
  addressKind,
  AWS_TARGETS,
  LOCAL_TARGETS,
  refusedAddress,
  refusedUrl,
} from '../../../functions/domain/webhooks/address.ts';

describe('the webhook address classifier (no server-side request forgery)', () => {
  // biome-ignore format: one address a line
  const kinds: [string, string][] = [
    ['93.184.216.34', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['100.64.0.1', 'shared'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::c0a8:101', 'private'],
    // The whole IPv4-mapped range, whatever is inside and however it is spelled; and the other special ranges.
    ['::ffff:93.184.216.34', 'reserved'],
    ['::ffff:5db8:d822', 'reserved'],
    ['0:0:0:0:0:ffff:5db8:d822', 'reserved'],
    ['::ffff:0:0', 'unspecified'],
    ['::ffff:0:5db8:d822', 'reserved'],
    ['64:ff9b:1::5db8:d822', 'reserved'],
    ['64:ff9b:1:ffff::1', 'reserved'],
    ['fec0::1', 'reserved'],
    ['feff::1', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['192.88.99.255', 'reserved'],
    // NAT64's well-known prefix holds a public IPv4 address.
    ['64:ff9b::5db8:d822', 'public'],
  ];
  it.each(kinds)('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it('allows only public addresses in AWS, and loopback too locally', () => {
    for (const [address, kind] of kinds) {
      expect(refusedAddress(address, AWS_TARGETS) === undefined, address).toBe(kind === 'public');
      expect(refusedAddress(address, LOCAL_TARGETS) === undefined, address).toBe(
        kind === 'public' || kind === 'loopback',
      );
    }
    expect(refusedAddress('example.com', AWS_TARGETS)).toMatch(/not an IP/);
  });

  it('refuses URLs: a scheme but https in AWS, http(s) locally, credentials, a refused literal address', () => {
    expect(refusedUrl('https://hooks.example.com/x', AWS_TARGETS)).toBeUndefined();
    expect(refusedUrl('http://hooks.example.com/x', AWS_TARGETS)).toMatch(/https/);
    expect(refusedUrl('http://hooks.example.com/x', LOCAL_TARGETS)).toBeUndefined();
    expect(refusedUrl('ftp://hooks.example.com/x', LOCAL_TARGETS)).toMatch(/scheme/);
    expect(refusedUrl('javascript:alert(1)', LOCAL_TARGETS)).toMatch(/scheme/);
    expect(refusedUrl('nonsense', LOCAL_TARGETS)).toMatch(/valid URL/);
    expect(refusedUrl('https://a:b@hooks.example.com/', AWS_TARGETS)).toMatch(/credentials/);
    expect(refusedUrl('https://127.0.0.1/', AWS_TARGETS)).toMatch(/loopback/);
    expect(refusedUrl('https://localhost/', AWS_TARGETS)).toMatch(/loopback/);
    expect(refusedUrl('http://127.0.0.1:8080/', LOCAL_TARGETS)).toBeUndefined();
    expect(refusedUrl('https://[fd00:ec2::254]/', AWS_TARGETS)).toMatch(/unique-local/);
    expect(refusedUrl('http://169.254.169.254/', LOCAL_TARGETS)).toMatch(/link-local/);
    expect(refusedUrl('https://2130706433/', AWS_TARGETS)).toMatch(/loopback/); // 127.0.0.1 as one number
  });
});
