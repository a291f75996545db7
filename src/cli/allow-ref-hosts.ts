/** The --tool-allow-ref-host values, lower-cased; throws CommandUsageError for one that is not a host or host:port. */
export async function parseRefHosts(values: string[]): Promise<string[]> {
  if (values.length === 0) return [];
  const { normaliseRefHost } = await import('../openapi/read-policy.js');
  const { CommandUsageError } = await import('../errors/tool-error.js');
  return values.map((value) => {
    const host = normaliseRefHost(value);
    if (host === undefined) throw new CommandUsageError(`--tool-allow-ref-host ${JSON.stringify(value)} is not a host name`, 'Give a host (api.example.com) or host:port, without a scheme or path.');
    return host;
  });
}
