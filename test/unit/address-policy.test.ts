import { describe, expect, it } from 'vitest';
import {
  addressRefusal,
  configuredAllowedCidrs,
  NO_ALLOWED_CIDRS,
  parseAllowedCidrs,
  targetUrlProblem,
} from '../../shared/outbound/address-policy.js';

describe('addressRefusal', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1 is a loopback address'],
    ['10.0.0.1', '10.0.0.1 is a private address'],
    ['172.16.0.1', '172.16.0.1 is a private address'],
    ['192.168.1.1', '192.168.1.1 is a private address'],
    ['169.254.169.254', '169.254.169.254 is a link-local address'],
    ['100.64.0.1', '100.64.0.1 is a carrier-grade NAT address'],
    ['0.0.0.0', '0.0.0.0 is an unspecified address'],
    ['224.0.0.1', '224.0.0.1 is a multicast address'],
    ['255.255.255.255', '255.255.255.255 is the broadcast address'],
    ['240.0.0.1', '240.0.0.1 is a reserved address'],
    ['192.0.2.10', '192.0.2.10 is a reserved address'],
    ['::1', '::1 is a loopback address'],
    ['[::1]', '::1 is a loopback address'],
    ['::', ':: is an unspecified address'],
    ['fd00::1', 'fd00::1 is a unique-local address'],
    ['fe80::1', 'fe80::1 is a link-local address'],
    ['fe80::1%eth0', 'fe80::1 is a link-local address'],
    ['ff02::1', 'ff02::1 is a multicast address'],
    ['::ffff:127.0.0.1', '::ffff:127.0.0.1 (IPv4-mapped 127.0.0.1) is a loopback address'],
    ['::ffff:a9fe:a9fe', '::ffff:a9fe:a9fe (IPv4-mapped 169.254.169.254) is a link-local address'],
    ['64:ff9b::7f00:1', '64:ff9b::7f00:1 is a NAT64 address'],
    ['2002:7f00:1::', '2002:7f00:1:: is a 6to4 address'],
    ['2001::1', '2001::1 is a Teredo address'],
    ['2001:db8::1', '2001:db8::1 is a reserved address'],
    // IPv4-compatible (deprecated) and other space outside 2000::/3.
    ['::7f00:1', '::7f00:1 is a reserved address'],
    ['hooks.example.com', 'hooks.example.com is not an IP address'],
  ])('refuses %s', (address, reason) => {
    expect(addressRefusal(address, NO_ALLOWED_CIDRS)).toBe(reason);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '[2606:4700::1111]', '::ffff:93.184.216.34'])(
    'allows the public unicast address %s',
    (address) => {
      expect(addressRefusal(address, NO_ALLOWED_CIDRS)).toBeUndefined();
    },
  );

  it('allows what the operator lists, and only that', () => {
    const loopback = parseAllowedCidrs('127.0.0.0/8');
    expect(addressRefusal('127.0.0.1', loopback)).toBeUndefined();
    expect(addressRefusal('127.255.0.9', loopback)).toBeUndefined();
    expect(addressRefusal('::ffff:127.0.0.1', loopback)).toBe(undefined);
    expect(addressRefusal('10.0.0.1', loopback)).toBe('10.0.0.1 is a private address');
    expect(addressRefusal('::1', loopback)).toBe('::1 is a loopback address');
    expect(addressRefusal('fd00::1', parseAllowedCidrs('fd00::/8'))).toBeUndefined();
    expect(addressRefusal('fe80::1', parseAllowedCidrs('fd00::/8'))).toBe('fe80::1 is a link-local address');
  });
});

describe('parseAllowedCidrs', () => {
  it('reads CIDRs and bare addresses separated by commas and whitespace', () => {
    const allowed = parseAllowedCidrs(' 10.0.0.0/8,fd00::/8\n 192.168.5.5 ,, ::1 ');
    expect(allowed.ranges.map(([address, prefix]) => `${address.toString()}/${prefix}`)).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
      '192.168.5.5/32',
      '::1/128',
    ]);
  });

  it('reads nothing as no ranges', () => {
    expect(parseAllowedCidrs(undefined).ranges).toEqual([]);
    expect(parseAllowedCidrs('').ranges).toEqual([]);
    expect(parseAllowedCidrs(' , ').ranges).toEqual([]);
  });

  it.each(['10.0.0.0/33', '10.0.0/8', 'localhost', 'fe80::/129', '10.0.0.0/', '0x7f.0.0.1/8'])(
    'throws naming the variable and the entry %s',
    (entry) => {
      expect(() => parseAllowedCidrs(`127.0.0.0/8, ${entry}`)).toThrow(`WEBHOOK_ALLOWED_CIDRS: "${entry}" is not an IPv4 or IPv6 CIDR`);
    },
  );
});

describe('configuredAllowedCidrs', () => {
  it('follows the variable as it changes', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(configuredAllowedCidrs(env).ranges).toEqual([]);
    env.WEBHOOK_ALLOWED_CIDRS = '127.0.0.0/8';
    expect(addressRefusal('127.0.0.1', configuredAllowedCidrs(env))).toBeUndefined();
    env.WEBHOOK_ALLOWED_CIDRS = '10.0.0.0/8';
    expect(addressRefusal('127.0.0.1', configuredAllowedCidrs(env))).toBe('127.0.0.1 is a loopback address');
    env.WEBHOOK_ALLOWED_CIDRS = 'nonsense';
    expect(() => configuredAllowedCidrs(env)).toThrow('"nonsense"');
  });
});

describe('targetUrlProblem', () => {
  const none = NO_ALLOWED_CIDRS;

  it('wants an http or https URL', () => {
    expect(targetUrlProblem('not a url', none)).toBe('is not a valid URL');
    expect(targetUrlProblem('ftp://files.example.com/x', none)).toBe('must be an http or https URL');
    expect(targetUrlProblem('file:///etc/passwd', none)).toBe('must be an http or https URL');
  });

  it('has no problem with a public hostname or address, and does not resolve names', () => {
    expect(targetUrlProblem('https://hooks.example.com/calls?x=1', none)).toBeUndefined();
    // Would not resolve at all: proof that no lookup happens here.
    expect(targetUrlProblem('https://no-such-host.invalid/', none)).toBeUndefined();
    expect(targetUrlProblem('http://93.184.216.34:8080/x', none)).toBeUndefined();
    expect(targetUrlProblem('http://[2606:4700::1111]/', none)).toBeUndefined();
  });

  it.each([
    ['http://127.0.0.1/', 'must not point at 127.0.0.1, a loopback address'],
    ['http://2130706433/', 'must not point at 127.0.0.1, a loopback address'],
    ['http://0x7f.1/', 'must not point at 127.0.0.1, a loopback address'],
    ['http://169.254.169.254/latest/meta-data/', 'must not point at 169.254.169.254, a link-local address'],
    ['http://[::1]:8080/', 'must not point at ::1, a loopback address'],
    ['http://[::ffff:127.0.0.1]/', 'must not point at ::ffff:7f00:1 (IPv4-mapped 127.0.0.1), a loopback address'],
    ['https://10.1.2.3/hook', 'must not point at 10.1.2.3, a private address'],
    ['http://localhost:8080/x', 'must not point at localhost, a loopback name'],
    ['http://LOCALHOST./x', 'must not point at localhost, a loopback name'],
    ['http://api.localhost/x', 'must not point at api.localhost, a loopback name'],
  ])('refuses %s', (url, problem) => {
    expect(targetUrlProblem(url, none)).toBe(problem);
  });

  it('lets loopback URLs through once 127.0.0.0/8 is allowed', () => {
    const loopback = parseAllowedCidrs('127.0.0.0/8');
    expect(targetUrlProblem('http://127.0.0.1:3000/hook', loopback)).toBeUndefined();
    expect(targetUrlProblem('http://2130706433/', loopback)).toBeUndefined();
    expect(targetUrlProblem('http://localhost:8080/x', loopback)).toBeUndefined();
    expect(targetUrlProblem('http://10.0.0.1/', loopback)).toBe('must not point at 10.0.0.1, a private address');
  });

  it('reads WEBHOOK_ALLOWED_CIDRS when no list is given', () => {
    const before = process.env.WEBHOOK_ALLOWED_CIDRS;
    try {
      process.env.WEBHOOK_ALLOWED_CIDRS = '10.0.0.0/8';
      expect(targetUrlProblem('http://10.0.0.1/')).toBeUndefined();
      delete process.env.WEBHOOK_ALLOWED_CIDRS;
      expect(targetUrlProblem('http://10.0.0.1/')).toBe('must not point at 10.0.0.1, a private address');
    } finally {
      if (before === undefined) delete process.env.WEBHOOK_ALLOWED_CIDRS;
      else process.env.WEBHOOK_ALLOWED_CIDRS = before;
    }
  });
});
