/**
 * MQTT through the `mqtt` package, loaded only when a step opens an MQTT connection (start-up time).
 * MQTT 5 by default: headers travel as user properties and the content type as the content type
 * property. Messages are published and subscribed at QoS 1, so publish resolves on the broker's
 * PUBACK: the message reached the broker (Arazzo asks no more of a send step). MQTT 3.1.1 has no
 * place for headers: publishing headers over it is refused rather than silently dropped.
 */

import type { IClientOptions, IPublishPacket, MqttClient } from 'mqtt';
import { untilAborted } from '../http/abortable.js';
import { printableLine } from '../output/printable.js';
import { AsyncAbortedError, ConnectionLostError, PublishError } from './async-errors.js';
import { BufferedSubscription } from './buffered-subscription.js';
import { decodePayload, encodePayload, type Message } from './message.js';
import { mqttConnectError } from './mqtt-connect-error.js';
import { topicMatches } from './topic-filter.js';
import type { PublishOptions, Subscription, Transport, TransportLimits } from './transport.js';

/** How to reach an MQTT broker. */
export interface MqttConnectOptions {
  /** `host:port` for messages, without credentials. */
  address: string;
  username?: string;
  password?: string;
  /** 5 (the default) or 4 for MQTT 3.1.1. */
  protocolVersion: 4 | 5;
  timeoutMs: number;
  signal?: AbortSignal;
  limits: TransportLimits;
}

/** Connects to the broker at `url` (mqtt: or mqtts:). Throws AsyncConnectError or AsyncAbortedError. */
export async function connectMqtt(url: string, options: MqttConnectOptions): Promise<Transport> {
  const { connect } = await import('mqtt');
  const clientOptions: IClientOptions = {
    protocolVersion: options.protocolVersion,
    // Our own timer says "no answer within"; mqtt.js's later one is only a backstop.
    connectTimeout: options.timeoutMs + 1000,
    // A step fails and says so; reconnecting would hide a broker that went away.
    reconnectPeriod: 0,
    clean: true,
    ...(options.username !== undefined && { username: options.username }),
    ...(options.password !== undefined && { password: options.password }),
    // MQTT 5: the broker must not send us packets larger than this (a slack for topic and properties).
    ...(options.protocolVersion === 5 && { properties: { maximumPacketSize: options.limits.maxMessageBytes + 64 * 1024 } }),
  };
  const client = connect(stripCredentials(url), clientOptions);
  try {
    await untilAborted(connected(client, options), options.signal, () => new AsyncAbortedError(`connecting to ${options.address}`));
  } catch (error) {
    client.end(true);
    throw error;
  }
  return new MqttTransport(client, options);
}

/** Resolves on CONNACK; rejects with the first error, or the close that comes without one. */
function connected(client: MqttClient, options: MqttConnectOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: unknown;
    const done = (error?: unknown): void => {
      clearTimeout(timer);
      client.off('connect', onConnect);
      client.off('error', onError);
      client.off('close', onClose);
      if (error === undefined) resolve();
      else reject(mqttConnectError(error, options));
    };
    const onConnect = (): void => done();
    const onError = (error: unknown): void => {
      failure ??= error;
    };
    // mqtt.js emits `close` after every failed attempt: by then the reason, if any, has been seen.
    const onClose = (): void => done(failure ?? 'closed');
    const timer = setTimeout(() => done('timeout'), options.timeoutMs);
    client.on('connect', onConnect);
    client.on('error', onError);
    client.on('close', onClose);
  });
}

/** The URL without user info: credentials go as CONNECT fields, never in a URL that may be printed. */
function stripCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

class MqttTransport implements Transport {
  private readonly subscriptions = new Set<BufferedSubscription>();

  constructor(
    private readonly client: MqttClient,
    private readonly options: MqttConnectOptions,
  ) {
    client.on('message', (topic, payload, packet) => this.receive(topic, payload, packet));
    client.on('error', () => {
      // Reported through `close`, which always follows; an unhandled 'error' event would throw.
    });
    client.on('close', () => {
      for (const subscription of this.subscriptions) subscription.end(new ConnectionLostError(options.address, 'the broker closed the connection'));
    });
  }

  async subscribe(address: string): Promise<Subscription> {
    const subscription: BufferedSubscription = new BufferedSubscription(address, this.options.limits, () => this.unsubscribe(subscription));
    // In the set before SUBSCRIBE goes out: a retained message may arrive right with the SUBACK.
    this.subscriptions.add(subscription);
    try {
      const granted = await this.client.subscribeAsync(address, { qos: 1 });
      if (granted.some((grant) => grant.qos === 128)) throw new Error('the broker refused the subscription');
    } catch (error) {
      this.subscriptions.delete(subscription);
      throw new ConnectionLostError(this.options.address, `cannot subscribe to "${address}": ${reason(error)}`);
    }
    return subscription;
  }

  async publish(address: string, payload: unknown, options: PublishOptions = {}): Promise<void> {
    const headers = options.headers ?? {};
    // MQTT 3.1.1 has no properties: headers cannot be sent (refused, not dropped); the content type
    // still decides how the payload is encoded, and a reader parses JSON text by itself.
    if (this.options.protocolVersion === 4 && Object.keys(headers).length > 0) {
      throw new PublishError(address, 'MQTT 3.1.1 cannot carry headers (they are MQTT 5 user properties); the server says protocolVersion 3.1.1');
    }
    const properties = {
      ...(options.contentType !== undefined && { contentType: options.contentType }),
      ...(Object.keys(headers).length > 0 && { userProperties: headers }),
    };
    // mqtt.js queues a message for a later reconnect when it is not connected, and we never
    // reconnect: refuse it now, and give up on one whose connection closes before its PUBACK.
    if (!this.client.connected) throw new PublishError(address, 'not connected to the broker');
    let onClose = (): void => {};
    const closed = new Promise<never>((_resolve, reject) => {
      onClose = () => reject(new Error('the connection closed before the broker acknowledged the message'));
      this.client.once('close', onClose);
    });
    const sent = this.client.publishAsync(address, encodePayload(payload, options.contentType), { qos: 1, ...(this.options.protocolVersion === 5 && { properties }) });
    try {
      await untilAborted(Promise.race([sent, closed]), options.signal, () => new AsyncAbortedError(`sending on channel "${address}"`));
    } catch (error) {
      if (error instanceof AsyncAbortedError) throw error;
      throw new PublishError(address, reason(error));
    } finally {
      this.client.off('close', onClose);
    }
  }

  async close(): Promise<void> {
    for (const subscription of this.subscriptions) subscription.end(new ConnectionLostError(this.options.address, 'the transport was closed'));
    this.subscriptions.clear();
    await this.client.endAsync(true);
  }

  private receive(topic: string, payload: Buffer, packet: IPublishPacket): void {
    const message: Message = {
      channel: topic,
      payload: decodePayload(payload.toString('utf8')),
      headers: userProperties(packet.properties?.userProperties),
      receivedAt: Date.now(),
      ...(packet.properties?.contentType !== undefined && { contentType: packet.properties.contentType }),
    };
    for (const subscription of this.subscriptions) {
      if (topicMatches(subscription.address, topic)) subscription.deliver(message, payload.length);
    }
  }

  private unsubscribe(subscription: BufferedSubscription): void {
    this.subscriptions.delete(subscription);
    const stillWanted = [...this.subscriptions].some((other) => other.address === subscription.address);
    if (!stillWanted && this.client.connected) this.client.unsubscribe(subscription.address);
  }
}

/** User properties as headers; a property given more than once keeps its last value. */
function userProperties(properties: Record<string, string | string[]> | undefined): Record<string, string> {
  // fromEntries defines own properties: a property named `__proto__` stays a header.
  return Object.fromEntries(Object.entries(properties ?? {}).map(([name, value]) => [name, Array.isArray(value) ? (value.at(-1) ?? '') : value]));
}

/** The broker's words, made safe to print. */
function reason(error: unknown): string {
  return printableLine(error instanceof Error ? error.message : String(error), {}, 200);
}
