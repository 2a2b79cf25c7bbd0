import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';

// Which CloudFront key signs a download link is decided by the private key the operator put in
// the signing secret, not by the deploy: the stack lists every public key of its key group with
// its fingerprint (DOWNLOADS_CLOUDFRONT_KEY_IDS, `<key id>=<fingerprint>,…`), and a signer uses the
// id whose public key is its private key's own. So a rotation can have two keys in the group while
// containers that read the old private key and those that read the new one both sign links
// CloudFront accepts (docs/deploy.md, Rotate secrets).

/** A public key's fingerprint: SHA-256 of its DER SubjectPublicKeyInfo, base64url. */
export function publicKeyFingerprint(publicKeyPem: string): string {
  return createHash('sha256').update(createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' })).digest('base64url');
}

/** The fingerprint of a private key's public half. */
export function privateKeyFingerprint(privateKeyPem: string): string {
  return createHash('sha256').update(createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'der' })).digest('base64url');
}

/** `<key id>=<fingerprint>` pairs, comma-separated, as the stack writes them. */
export function parseKeyIds(text: string): Map<string, string> {
  const byFingerprint = new Map<string, string>();
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) byFingerprint.set(pair.slice(at + 1).trim(), pair.slice(0, at).trim());
  }
  return byFingerprint;
}

/** The key id listed for this private key's public half, or null when none is. */
export function keyIdForPrivateKey(keyIds: string, privateKeyPem: string): string | null {
  return parseKeyIds(keyIds).get(privateKeyFingerprint(privateKeyPem)) ?? null;
}
