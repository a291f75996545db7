/** How `tool auth status` prints its findings as text. */

import { isUsable, type AuthStatus } from '../auth/auth-status.js';

/** One block per API: the scheme, then indented lines about the secret and the token. */
export function formatAuthStatus(statuses: AuthStatus[], now: number): string {
  const blocks = statuses.map((status) => {
    const lines = [`${status.name}: ${status.description}${status.type !== 'none' && !isUsable(status) ? ' (not logged in)' : ''}`];
    if (status.type === 'none') {
      lines.push(`  log in: tool auth login ${status.name}`);
      return lines.join('\n');
    }
    const { secret } = status;
    if (secret.source === 'env') lines.push(`  secret: from $${secret.env} (${secret.present ? 'set' : 'NOT set'})`);
    else if (secret.source === 'credentials') lines.push('  secret: stored in credentials.json');
    else if (!status.type.startsWith('oauth2-') || status.type === 'oauth2-client-credentials') lines.push('  secret: none stored');
    if (status.refreshToken !== undefined) lines.push(`  refresh token: ${status.refreshToken ? 'stored' : 'none'}`);
    if (status.type.startsWith('oauth2-')) lines.push(`  access token: ${tokenLine(status.accessToken, now)}`);
    return lines.join('\n');
  });
  return `${blocks.join('\n')}\n`;
}

function tokenLine(token: AuthStatus['accessToken'], now: number): string {
  if (token === undefined) return 'none cached';
  if (token.expiresAt === null) return 'cached (no expiry given)';
  if (token.expired) return `expired or about to (${token.expiresAt}); refreshed on next use`;
  return `valid until ${token.expiresAt} (${inWords(Date.parse(token.expiresAt) - now)})`;
}

function inWords(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'in under a minute';
  if (minutes < 120) return `in ${minutes} min`;
  return `in ${Math.round(minutes / 60)} h`;
}
