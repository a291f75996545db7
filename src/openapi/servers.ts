import type { Operation } from './types.js';

const VARIABLE = /\{([^{}]+)\}/g;
const HTTP_URL = /^https?:\/\//i;

/**
 * URLs of an OpenAPI `servers` array, variables replaced by their defaults. When the description
 * came over http(s) (`location` is a URL), relative URLs are resolved against it; otherwise they
 * are kept as written. Entries without a string `url` are skipped.
 */
export function serverUrls(servers: unknown, location: string): string[] {
  if (!Array.isArray(servers)) return [];
  const remote = HTTP_URL.test(location);
  const urls: string[] = [];
  for (const server of servers) {
    if (server === null || typeof server !== 'object') continue;
    const { url, variables } = server as { url?: unknown; variables?: unknown };
    if (typeof url !== 'string') continue;
    const filled = fillVariables(url.trim(), variables);
    urls.push(remote ? absolute(filled, location) : filled);
  }
  return urls;
}

/** The first absolute http(s) server URL of an operation or a description (variables filled), or undefined when it has none. */
export function usableServerUrl(owner: Pick<Operation, 'servers'>): string | undefined {
  for (const url of owner.servers) {
    // URL.canParse accepts `{` in a host, so an unfilled variable needs its own check.
    if (HTTP_URL.test(url) && !url.includes('{') && URL.canParse(url)) return url;
  }
  return undefined;
}

function fillVariables(url: string, variables: unknown): string {
  if (!url.includes('{') || variables === null || typeof variables !== 'object') return url;
  const table = variables as Record<string, unknown>;
  return url.replace(VARIABLE, (whole, name: string) => {
    const variable = table[name];
    const fallback = variable !== null && typeof variable === 'object' ? (variable as { default?: unknown }).default : undefined;
    // A variable without a default is invalid OpenAPI; keeping the placeholder makes the URL
    // visibly unusable rather than silently wrong.
    return typeof fallback === 'string' || typeof fallback === 'number' ? String(fallback) : whole;
  });
}

function absolute(url: string, location: string): string {
  if (HTTP_URL.test(url)) return url;
  try {
    return new URL(url, location).href;
  } catch {
    return url;
  }
}
