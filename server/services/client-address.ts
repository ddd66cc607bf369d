/**
 * The address that per-address limits count by. An IPv4 address is one client; an IPv6
 * client controls a whole /64 network (2^64 addresses it can pick from), so the limits
 * count by that network, or one host could name a fresh address for every guess. An IPv4
 * address written as IPv6 (::ffff:1.2.3.4) is the IPv4 client it names.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address, "::" expanded, an IPv4 tail converted. */
function groupsOf(address: string): string[] {
  let text = address.split('%')[0] ?? '';
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (tail) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = `${text.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const middle = rest === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''));
}

export function clientAddress(ip: string): string {
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped) return mapped;
  return `${groupsOf(ip).slice(0, 4).join(':')}::/64`;
}
