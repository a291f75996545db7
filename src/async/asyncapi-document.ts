/**
 * An AsyncAPI 3 document read into the parts an asynchronous step needs: servers, channels,
 * operations and their messages, with local `$ref`s followed. The input is an already parsed
 * JSON value (YAML is parsed elsewhere). Only what a step uses is checked; the rest is ignored.
 */

import { escapePointerToken, unescapePointerToken } from '../expressions/json-pointer.js';
import { AsyncApiError } from './async-errors.js';
import { followRef, type Located } from './local-refs.js';

/** A server of the document: where a broker or WebSocket server listens. */
export interface AsyncApiServer {
  /** The key under `servers`. */
  name: string;
  /** `host` or `host:port`, server variables replaced by their defaults. */
  host: string;
  /** As written (`mqtt`, `ws`, `kafka`, ...), lower-cased. */
  protocol: string;
  /** A path on the host (`/mqtt`), variables replaced by their defaults. */
  pathname?: string;
  /** As written, such as `5` or `3.1.1`. */
  protocolVersion?: string;
}

/** A message a channel carries. */
export interface AsyncApiMessage {
  /** The message's `name`, else the key it is listed under. */
  name: string;
  /** The message's, else the document's `defaultContentType`. */
  contentType?: string;
  /** Where a correlation value is read: `$message.header#/orderRequestId`, `$message.payload#/id`. */
  correlationId?: { location: string; description?: string };
  /** The headers schema (its own top-level `$ref` followed; nested ones left as written). */
  headers?: unknown;
  /** The payload schema (its own top-level `$ref` followed; nested ones left as written). */
  payload?: unknown;
  /** Where the message object is, after following references. */
  pointer: string;
}

/** A channel: an address on a server and the messages sent on it. */
export interface AsyncApiChannel {
  /** The key under `channels`. */
  key: string;
  /** As written, `{param}` expressions kept; undefined when the address is unknown (`null` or absent). */
  address?: string;
  messages: AsyncApiMessage[];
  /** Names of the servers the channel is on; empty means every server of the document. */
  servers: string[];
  /** Where the channel object is (`/channels/place-order`), after following references. */
  pointer: string;
}

/** The reply of a request/reply operation. */
export interface AsyncApiReply {
  /** The key of the reply channel, when the reply names one. */
  channel?: string;
  /** The reply channel's address, when it has a known one. */
  address?: string;
  /** The reply's `address.location` runtime expression (the reply address is read from the request). */
  addressLocation?: string;
  messages: AsyncApiMessage[];
}

/** An operation, keyed by its operationId. `action` is the application's point of view, as written. */
export interface AsyncApiOperation {
  operationId: string;
  action: 'send' | 'receive';
  /** The key of the operation's channel under `channels`. */
  channel: string;
  /** The channel's address, as written. */
  address?: string;
  /** The operation's messages, else all of its channel's. */
  messages: AsyncApiMessage[];
  reply?: AsyncApiReply;
}

/** The readable parts of an AsyncAPI 3 document. */
export interface AsyncApiDocument {
  /** The `asyncapi` field, such as `3.0.0`. */
  version: string;
  servers: Map<string, AsyncApiServer>;
  channels: Map<string, AsyncApiChannel>;
  operations: Map<string, AsyncApiOperation>;
}

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Reads a parsed AsyncAPI 3 document. Throws AsyncApiError when it is not one or a reference it needs is broken. */
export function readAsyncApi(root: unknown): AsyncApiDocument {
  if (!isObject(root)) throw new AsyncApiError('an AsyncAPI document must be a mapping', '');
  const version = root.asyncapi;
  if (typeof version !== 'string' || !/^3\./.test(version)) {
    throw new AsyncApiError(`"asyncapi" must be a 3.x version, got ${JSON.stringify(version) ?? 'nothing'}`, '/asyncapi');
  }
  const reader = new Reader(root, optionalString(root.defaultContentType));
  const servers = new Map(entries(root, 'servers').map(([name, at]) => [name, reader.server(name, at)]));
  const channels = new Map(entries(root, 'channels').map(([key, at]) => [key, reader.channel(key, at)]));
  const operations = new Map(entries(root, 'operations').map(([id, at]) => [id, reader.operation(id, at, channels)]));
  return { version, servers, channels, operations };
}

/** The members of a top-level map, each with its pointer; references are followed by the caller. */
function entries(root: Obj, field: string): [string, Located][] {
  const map = root[field];
  if (map === undefined) return [];
  if (!isObject(map)) throw new AsyncApiError(`"${field}" must be a mapping`, `/${field}`);
  return Object.entries(map).map(([key, value]) => [key, { value, pointer: `/${field}/${escapePointerToken(key)}` }]);
}

class Reader {
  constructor(
    private readonly root: Obj,
    private readonly defaultContentType: string | undefined,
  ) {}

  /** The object at `at`, references followed; throws when it is not a mapping. */
  private object(at: Located, what: string): { value: Obj; pointer: string } {
    const found = followRef(this.root, at.value, at.pointer);
    if (!isObject(found.value)) throw new AsyncApiError(`${what} must be a mapping`, found.pointer);
    return { value: found.value, pointer: found.pointer };
  }

  server(name: string, at: Located): AsyncApiServer {
    const { value, pointer } = this.object(at, `server "${name}"`);
    const host = value.host;
    const protocol = value.protocol;
    if (typeof host !== 'string') throw new AsyncApiError(`server "${name}" has no "host"`, pointer);
    if (typeof protocol !== 'string') throw new AsyncApiError(`server "${name}" has no "protocol"`, pointer);
    const defaults = variableDefaults(value.variables);
    const pathname = optionalString(value.pathname);
    const protocolVersion = optionalString(value.protocolVersion) ?? (typeof value.protocolVersion === 'number' ? String(value.protocolVersion) : undefined);
    return {
      name,
      host: withDefaults(host, defaults),
      protocol: protocol.toLowerCase(),
      ...(pathname !== undefined && { pathname: withDefaults(pathname, defaults) }),
      ...(protocolVersion !== undefined && { protocolVersion }),
    };
  }

  channel(key: string, at: Located): AsyncApiChannel {
    const { value, pointer } = this.object(at, `channel "${key}"`);
    const address = optionalString(value.address);
    const messages = this.messageMap(value.messages, `${pointer}/messages`);
    const servers = this.list(value.servers, `${pointer}/servers`).map((server) => {
      const found = followRef(this.root, server.value, server.pointer);
      const match = /^\/servers\/([^/]+)$/.exec(found.pointer);
      if (match === null) throw new AsyncApiError('a channel\'s server must be a $ref to "#/servers/<name>"', server.pointer);
      return unescapePointerToken(match[1] as string);
    });
    return { key, ...(address !== undefined && { address }), messages, servers, pointer };
  }

  operation(operationId: string, at: Located, channels: Map<string, AsyncApiChannel>): AsyncApiOperation {
    const { value, pointer } = this.object(at, `operation "${operationId}"`);
    const action = value.action;
    if (action !== 'send' && action !== 'receive') throw new AsyncApiError(`operation "${operationId}" must have action "send" or "receive"`, `${pointer}/action`);
    const channel = this.channelOf(value.channel, `${pointer}/channel`, channels);
    const listed = this.list(value.messages, `${pointer}/messages`).map((m) => this.message(m, undefined));
    const operation: AsyncApiOperation = {
      operationId,
      action,
      channel: channel.key,
      ...(channel.address !== undefined && { address: channel.address }),
      messages: value.messages === undefined ? channel.messages : listed,
    };
    if (value.reply !== undefined) operation.reply = this.reply({ value: value.reply, pointer: `${pointer}/reply` }, channels);
    return operation;
  }

  private reply(at: Located, channels: Map<string, AsyncApiChannel>): AsyncApiReply {
    const { value, pointer } = this.object(at, 'an operation reply');
    const channel = value.channel === undefined ? undefined : this.channelOf(value.channel, `${pointer}/channel`, channels);
    const address = value.address === undefined ? undefined : this.object({ value: value.address, pointer: `${pointer}/address` }, 'a reply address');
    const addressLocation = optionalString(address?.value.location);
    const listed = this.list(value.messages, `${pointer}/messages`).map((m) => this.message(m, undefined));
    return {
      ...(channel !== undefined && { channel: channel.key }),
      ...(channel?.address !== undefined && { address: channel.address }),
      ...(addressLocation !== undefined && { addressLocation }),
      messages: value.messages === undefined ? (channel?.messages ?? []) : listed,
    };
  }

  /** The channel a `channel` field refers to: one under `channels`, found by where its reference leads. */
  private channelOf(ref: unknown, at: string, channels: Map<string, AsyncApiChannel>): AsyncApiChannel {
    const target = followRef(this.root, ref, at).pointer;
    for (const channel of channels.values()) if (channel.pointer === target) return channel;
    throw new AsyncApiError('the channel must be a $ref to a channel under "#/channels"', at);
  }

  private messageMap(value: unknown, pointer: string): AsyncApiMessage[] {
    if (value === undefined) return [];
    const map = followRef(this.root, value, pointer);
    if (!isObject(map.value)) throw new AsyncApiError('"messages" must be a mapping', map.pointer);
    return Object.entries(map.value).map(([key, message]) => this.message({ value: message, pointer: `${map.pointer}/${escapePointerToken(key)}` }, key));
  }

  private message(at: Located, key: string | undefined): AsyncApiMessage {
    const listedAs = key ?? lastToken(followRefOnce(at));
    const { value, pointer } = this.object(at, 'a message');
    const correlation = value.correlationId === undefined ? undefined : this.object({ value: value.correlationId, pointer: `${pointer}/correlationId` }, 'a correlationId');
    const location = optionalString(correlation?.value.location);
    const description = optionalString(correlation?.value.description);
    const contentType = optionalString(value.contentType) ?? this.defaultContentType;
    const schema = (field: string): unknown => value[field] === undefined ? undefined : followRef(this.root, value[field], `${pointer}/${field}`).value;
    return {
      name: optionalString(value.name) ?? listedAs,
      ...(contentType !== undefined && { contentType }),
      ...(location !== undefined && { correlationId: { location, ...(description !== undefined && { description }) } }),
      ...(value.headers !== undefined && { headers: schema('headers') }),
      ...(value.payload !== undefined && { payload: schema('payload') }),
      pointer,
    };
  }

  /** The items of a list field (an absent one is empty), references left to the caller. */
  private list(value: unknown, pointer: string): Located[] {
    if (value === undefined) return [];
    const list = followRef(this.root, value, pointer);
    if (!Array.isArray(list.value)) throw new AsyncApiError('must be a list', list.pointer);
    return list.value.map((item, i) => ({ value: item, pointer: `${list.pointer}/${i}` }));
  }
}

/** The pointer one `$ref` leads to, or the node's own: names a message by the key it is listed under. */
function followRefOnce(at: Located): string {
  const ref = isObject(at.value) ? optionalString(at.value.$ref) : undefined;
  return ref?.startsWith('#') ? ref.slice(1) : at.pointer;
}

function lastToken(pointer: string): string {
  return unescapePointerToken(pointer.slice(pointer.lastIndexOf('/') + 1));
}

/** Server variable name → default value, for the variables that have one. */
function variableDefaults(variables: unknown): Map<string, string> {
  const defaults = new Map<string, string>();
  if (!isObject(variables)) return defaults;
  for (const [name, variable] of Object.entries(variables)) {
    if (isObject(variable) && typeof variable.default === 'string') defaults.set(name, variable.default);
  }
  return defaults;
}

function withDefaults(text: string, defaults: Map<string, string>): string {
  return text.replace(/\{([^{}]+)\}/g, (whole, name: string) => defaults.get(name) ?? whole);
}
