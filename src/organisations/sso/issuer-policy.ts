import { isIP } from 'node:net';
import { isBlockedAddress } from '../../connectors/engine/address-policy';
import { ISSUER_NOT_HTTPS, ISSUER_PRIVATE_ADDRESS, ISSUER_NOT_PLAIN } from './sso.messages';

export interface IssuerPolicyOptions {
  isProduction: boolean;
  /** CONNECTOR_ALLOW_PRIVATE_NETWORKS: the one switch for outbound requests to private networks. */
  allowPrivateNetworks: boolean;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why an issuer URL may not be used, or null. The app fetches the issuer's discovery document,
 * keys and tokens from the server, so the connectors' rule applies: no private or loopback
 * address unless private networks are allowed. A local provider on this machine (tests,
 * development) is allowed outside production, over plain http too; anywhere else only https.
 * Host names are judged as written (a name that resolves to a private address is not looked up).
 */
export function issuerProblem(issuer: string, options: IssuerPolicyOptions): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return ISSUER_NOT_HTTPS;
  }
  if (url.username || url.password || url.search || url.hash) return ISSUER_NOT_PLAIN;
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (loopback && !options.isProduction) {
    return url.protocol === 'https:' || url.protocol === 'http:' ? null : ISSUER_NOT_HTTPS;
  }
  if (url.protocol !== 'https:') return ISSUER_NOT_HTTPS;
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  const privateHost = loopback || (isIP(literal) !== 0 && isBlockedAddress(literal));
  if (privateHost && !options.allowPrivateNetworks) return ISSUER_PRIVATE_ADDRESS;
  return null;
}

/** Plain http is spoken only with a provider the policy allowed it for (loopback, outside production). */
export function isInsecureIssuer(issuer: string): boolean {
  return new URL(issuer).protocol === 'http:';
}
