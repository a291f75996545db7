import { describe, expect, it } from '@jest/globals';
import { readAsyncApi } from '../../../src/async/asyncapi-document.js';
import { channelByPointer, operationById, serversOfOperation, serverUrl, supportedProtocol } from '../../../src/async/asyncapi-lookup.js';
import { AsyncApiError, ProtocolUnsupportedError } from '../../../src/async/async-errors.js';
import { fixture } from './read-fixture.js';

describe('readAsyncApi on the Arazzo 1.1 pet example', () => {
  const doc = readAsyncApi(fixture('arazzo-examples/examples/1.1.0/pet-asyncapi.yaml'));

  it('reads the operation, its channel, its messages and its reply through $refs', () => {
    const op = operationById(doc, 'placeOrder');
    expect(op).toMatchObject({ operationId: 'placeOrder', action: 'receive', channel: 'place-order', address: 'place-order' });
    expect(op?.messages.map((m) => m.name)).toEqual(['placeOrder.message']);
    expect(op?.messages[0]).toMatchObject({
      contentType: 'application/json',
      correlationId: { location: '$message.header#/orderRequestId' },
      pointer: '/components/messages/OrderRequest',
    });
    expect(op?.reply).toMatchObject({ channel: 'confirm-order', address: 'confirm-order' });
    expect(op?.reply?.messages[0]?.payload).toMatchObject({ required: ['orderId'] });
  });

  it('finds a channel by its channelPath pointer, with or without the #', () => {
    expect(channelByPointer(doc, '#/channels/place-order')?.address).toBe('place-order');
    expect(channelByPointer(doc, '/channels/confirm-order')?.key).toBe('confirm-order');
    expect(channelByPointer(doc, '#/channels/nope')).toBeUndefined();
    expect(channelByPointer(doc, '#/components/messages/OrderRequest')).toBeUndefined();
  });

  it('names the unsupported protocol of its Kafka server', () => {
    const [server] = serversOfOperation(doc, operationById(doc, 'placeOrder')!);
    expect(server).toMatchObject({ name: 'localKafka', protocol: 'kafka', host: 'localhost:9092' });
    const result = supportedProtocol(server!);
    expect(result).toBeInstanceOf(ProtocolUnsupportedError);
    expect(result).toMatchObject({ code: 'ASYNC_PROTOCOL_UNSUPPORTED', protocol: 'kafka' });
    expect((result as Error).message).toContain('"kafka"');
  });
});

describe('readAsyncApi on an MQTT and WebSocket document', () => {
  const doc = readAsyncApi(fixture('asyncapi/orders-mqtt-ws.yaml'));

  it('reads servers with variable defaults and builds their URLs', () => {
    const broker = doc.servers.get('broker')!;
    expect(broker).toEqual({ name: 'broker', host: '127.0.0.1:1883', protocol: 'mqtt', protocolVersion: '5' });
    expect(serverUrl(broker)).toBe('mqtt://127.0.0.1:1883');
    expect(serverUrl(doc.servers.get('socket')!)).toBe('ws://localhost:8080/events');
    expect(supportedProtocol(broker)).toBe('mqtt');
  });

  it('keeps a parameterised address as written and uses the channel\'s own servers', () => {
    const op = operationById(doc, 'watchStatus')!;
    expect(op.address).toBe('orders/{orderId}/status');
    expect(serversOfOperation(doc, op).map((s) => s.name)).toEqual(['broker']);
    expect(op.messages[0]).toMatchObject({ name: 'status', contentType: 'application/json', correlationId: { location: '$message.payload#/order/id' } });
    expect(op.messages[0]?.payload).toMatchObject({ type: 'object' });
  });

  it('reads a channel defined under components through its $ref, and a reply without messages takes its channel\'s', () => {
    expect(doc.channels.get('orderEvents')).toMatchObject({ address: 'order-events', servers: ['socket'] });
    expect(operationById(doc, 'watchStatus')?.reply?.messages.map((m) => m.name)).toEqual(['OrderEvent']);
    expect(operationById(doc, 'streamEvents')).toMatchObject({ channel: 'orderEvents', messages: [{ name: 'OrderEvent', contentType: 'text/plain' }] });
  });

  it('leaves an unknown (null) address undefined', () => {
    expect(doc.channels.get('anywhere')?.address).toBeUndefined();
  });
});

describe('readAsyncApi refusals', () => {
  it('refuses a $ref loop, naming where it starts', () => {
    expect(() => readAsyncApi(fixture('asyncapi/ref-loop.yaml'))).toThrow(/loops back.*\(at \/channels\/b\)|loops back.*\(at \/channels\/a\)/);
  });

  it('refuses a $ref that does not resolve, with the ASYNCAPI_INVALID code', () => {
    let error: unknown;
    try {
      readAsyncApi(fixture('asyncapi/ref-missing.yaml'));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AsyncApiError);
    expect(error).toMatchObject({ code: 'ASYNCAPI_INVALID', pointer: '/operations/lost/channel' });
    expect((error as Error).message).toContain('"#/channels/absent" does not resolve');
  });

  it('refuses documents that are not AsyncAPI 3', () => {
    expect(() => readAsyncApi([])).toThrow(AsyncApiError);
    expect(() => readAsyncApi({ asyncapi: '2.6.0' })).toThrow(/3\.x version, got "2\.6\.0"/);
  });

  it('lower-cases a protocol and still names it when unsupported', () => {
    const doc = readAsyncApi(fixture('asyncapi/kafka-server.yaml'));
    expect(supportedProtocol(doc.servers.get('cluster')!)).toMatchObject({ protocol: 'kafka' });
  });
});
