/** PKCE (RFC 7636, S256) and the `state` value of an authorization request. */

import { createHash, randomBytes } from 'node:crypto';

export interface PkcePair {
  /** 43 base64url characters from 32 random bytes, sent only to the token endpoint. */
  verifier: string;
  /** BASE64URL(SHA256(verifier)), sent in the authorization request. */
  challenge: string;
}

/** A fresh verifier and its S256 challenge. */
export function createPkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier) };
}

/** The S256 challenge of a verifier (also what a server computes to check it). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** An unguessable `state` that binds the redirect to this login attempt (CSRF protection). */
export function createState(): string {
  return randomBytes(16).toString('base64url');
}
