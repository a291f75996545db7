import { describe, expect, it } from '@jest/globals';
import { channelUrl } from '../../../src/async/ws-transport.js';
import { decodeFrame, encodeFrame } from '../../../src/async/ws-frame.js';
import { topicMatches } from '../../../src/async/topic-filter.js';
import { decodePayload, encodePayload } from '../../../src/async/message.js';
import { mqttProtocolVersion } from '../../../src/async/connect-transport.js';

describe('WebSocket frames', () => {
  it('sends a payload alone when there are no headers, and an envelope when there are', () => {
    expect(encodeFrame({ petId: 1 }, {}, 'application/json')).toBe('{"petId":1}');
    expect(encodeFrame('plain', {}, undefined)).toBe('plain');
    expect(JSON.parse(encodeFrame({ petId: 1 }, { id: 'r' }, undefined))).toEqual({ headers: { id: 'r' }, payload: { petId: 1 } });
  });

  it('reads an exact envelope as headers and payload, and anything else as the payload', () => {
    expect(decodeFrame('c', '{"headers":{"id":"r"},"payload":{"a":1}}')).toMatchObject({ headers: { id: 'r' }, payload: { a: 1 } });
    expect(decodeFrame('c', '{"headers":{"id":"r"},"payload":1,"x":2}')).toMatchObject({ headers: {}, payload: { headers: { id: 'r' }, payload: 1, x: 2 } });
    expect(decodeFrame('c', '{"headers":{"id":7},"payload":1}').headers).toEqual({});
    expect(decodeFrame('c', 'not json')).toMatchObject({ channel: 'c', payload: 'not json', headers: {} });
  });

  it('appends the channel address to the server URL as a path, dropping credentials', () => {
    expect(channelUrl('ws://host:1/', 'place-order')).toBe('ws://host:1/place-order');
    expect(channelUrl('wss://u:p@host/base', '/a/b')).toBe('wss://host/base/a/b');
  });
});

describe('payload encoding', () => {
  it('sends a string as it is unless the content type is JSON, and anything else as JSON', () => {
    expect(encodePayload('a b', 'text/plain')).toBe('a b');
    expect(encodePayload('a b', 'application/json')).toBe('"a b"');
    expect(encodePayload({ a: 1 }, undefined)).toBe('{"a":1}');
  });

  it('reads text as JSON when it parses, else keeps the text', () => {
    expect(decodePayload(' {"a":1} ')).toEqual({ a: 1 });
    expect(decodePayload('42')).toBe(42);
    expect(decodePayload('hello')).toBe('hello');
    expect(decodePayload('')).toBe('');
  });
});

describe('MQTT topics and versions', () => {
  it('matches topic filters with + and #', () => {
    expect(topicMatches('orders/+/status', 'orders/7/status')).toBe(true);
    expect(topicMatches('orders/#', 'orders/7/status')).toBe(true);
    expect(topicMatches('orders/#', 'orders')).toBe(true);
    expect(topicMatches('orders/+', 'orders/7/status')).toBe(false);
    expect(topicMatches('#', '$SYS/broker')).toBe(false);
    expect(topicMatches('a/b', 'a/c')).toBe(false);
  });

  it('maps an AsyncAPI protocolVersion to the MQTT version', () => {
    expect(mqttProtocolVersion(undefined)).toBe(5);
    expect(mqttProtocolVersion('5.0')).toBe(5);
    expect(mqttProtocolVersion('3.1.1')).toBe(4);
  });
});
