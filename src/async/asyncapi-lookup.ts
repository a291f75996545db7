/**
 * Finding what an Arazzo step names in an AsyncAPI document: an operation by `operationId`, a
 * channel by a `channelPath` pointer, and the servers to connect to. Arazzo's step `action` and
 * AsyncAPI's operation `action` are from opposite points of view (a workflow sends what the
 * application receives), so no pairing is enforced here: both are exposed to the engine.
 */

import { parsePointer } from '../expressions/json-pointer.js';
import { ProtocolUnsupportedError, SUPPORTED_PROTOCOLS, type SupportedProtocol } from './async-errors.js';
import type { AsyncApiChannel, AsyncApiDocument, AsyncApiOperation, AsyncApiServer } from './asyncapi-document.js';

/** The operation with this operationId, if the document has it. */
export function operationById(doc: AsyncApiDocument, operationId: string): AsyncApiOperation | undefined {
  return doc.operations.get(operationId);
}

/**
 * The channel a `channelPath` pointer names (`#/channels/place-order`, with or without the `#`):
 * the channel found there or, for a pointer to a channel's address or messages, the channel that
 * holds them. Undefined when no channel is there.
 */
export function channelByPointer(doc: AsyncApiDocument, pointer: string): AsyncApiChannel | undefined {
  let tokens: string[];
  try {
    tokens = parsePointer(pointer.startsWith('#') ? decodeURIComponent(pointer.slice(1)) : pointer);
  } catch {
    return undefined;
  }
  if (tokens[0] !== 'channels' || tokens[1] === undefined) return undefined;
  return doc.channels.get(tokens[1]);
}

/** The servers a channel is on: the ones it names, else every server of the document. */
export function serversOf(doc: AsyncApiDocument, channel: AsyncApiChannel): AsyncApiServer[] {
  if (channel.servers.length === 0) return [...doc.servers.values()];
  return channel.servers.flatMap((name) => {
    const server = doc.servers.get(name);
    return server === undefined ? [] : [server];
  });
}

/** The servers of an operation: those of its channel. */
export function serversOfOperation(doc: AsyncApiDocument, operation: AsyncApiOperation): AsyncApiServer[] {
  const channel = doc.channels.get(operation.channel);
  return channel === undefined ? [] : serversOf(doc, channel);
}

/** The server's URL: `mqtt://host:1883`, `ws://host/pathname`. */
export function serverUrl(server: AsyncApiServer): string {
  const path = server.pathname === undefined || server.pathname === '' ? '' : server.pathname.startsWith('/') ? server.pathname : `/${server.pathname}`;
  return `${server.protocol}://${server.host}${path}`;
}

/** The server's protocol when tool speaks it, else a ProtocolUnsupportedError naming it (returned, not thrown: the engine reports it as a finding). */
export function supportedProtocol(server: AsyncApiServer): SupportedProtocol | ProtocolUnsupportedError {
  const protocol = server.protocol;
  return (SUPPORTED_PROTOCOLS as readonly string[]).includes(protocol) ? (protocol as SupportedProtocol) : new ProtocolUnsupportedError(protocol);
}

