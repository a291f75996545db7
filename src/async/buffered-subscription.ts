/**
 * The Subscription both transports hand out: messages are kept from the moment of subscribing,
 * so a reply that arrives before a step starts waiting is not lost, and a wait takes the first
 * message its match accepts while the others stay for later waits. Bounded in count and bytes:
 * past a limit the oldest message goes, and is counted.
 */

import { whenAborted } from '../http/abortable.js';
import { AsyncAbortedError, AsyncTimeoutError, ConnectionLostError } from './async-errors.js';
import type { Message } from './message.js';
import type { NextOptions, Subscription, TransportLimits } from './transport.js';

interface Buffered {
  message: Message;
  bytes: number;
}

interface Waiter {
  match: (message: Message) => boolean;
  resolve: (message: Message) => void;
  reject: (error: Error) => void;
}

/** A Subscription fed by its transport through `deliver` and ended through `end`. */
export class BufferedSubscription implements Subscription {
  private readonly buffered: Buffered[] = [];
  private bufferedBytes = 0;
  private readonly waiters = new Set<Waiter>();
  private ended: Error | undefined;
  dropped = 0;

  constructor(
    readonly address: string,
    private readonly limits: TransportLimits,
    /** Called once when the subscription closes, to unsubscribe or close its socket. */
    private readonly onClose: () => void,
  ) {}

  /** Takes a message from the transport: to the first waiter that wants it, else into the buffer. */
  deliver(message: Message, bytes: number): void {
    if (this.ended !== undefined) return;
    if (bytes > this.limits.maxMessageBytes) {
      this.dropped++;
      return;
    }
    for (const waiter of this.waiters) {
      if (this.accepts(waiter, message)) {
        this.waiters.delete(waiter);
        waiter.resolve(message);
        return;
      }
    }
    this.buffered.push({ message, bytes });
    this.bufferedBytes += bytes;
    while (this.buffered.length > this.limits.maxBuffered || this.bufferedBytes > this.limits.maxBufferedBytes) {
      const oldest = this.buffered.shift() as Buffered;
      this.bufferedBytes -= oldest.bytes;
      this.dropped++;
    }
  }

  /** Called by the transport when the connection is gone: pending and later waits reject with `error`. */
  end(error: Error): void {
    if (this.ended !== undefined) return;
    this.ended = error;
    for (const waiter of this.waiters) waiter.reject(error);
    this.waiters.clear();
  }

  next(match: (message: Message) => boolean, options: NextOptions = {}): Promise<Message> {
    const { timeoutMs, signal } = options;
    if (signal?.aborted) return Promise.reject(new AsyncAbortedError(`waiting on channel "${this.address}"`));
    const index = this.buffered.findIndex((entry) => match(entry.message));
    if (index >= 0) {
      const [taken] = this.buffered.splice(index, 1) as [Buffered];
      this.bufferedBytes -= taken.bytes;
      return Promise.resolve(taken.message);
    }
    if (this.ended !== undefined) return Promise.reject(this.ended);
    return new Promise<Message>((resolve, reject) => {
      const settle = (): void => {
        this.waiters.delete(waiter);
        if (timer !== undefined) clearTimeout(timer);
        stopWaiting?.();
      };
      const waiter: Waiter = {
        match,
        resolve: (message) => {
          settle();
          resolve(message);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => waiter.reject(new AsyncTimeoutError(this.address, timeoutMs)), timeoutMs);
      const stopWaiting = signal && whenAborted(signal, () => waiter.reject(new AsyncAbortedError(`waiting on channel "${this.address}"`)));
      this.waiters.add(waiter);
    });
  }

  close(): void {
    if (this.ended !== undefined) return;
    this.end(new ConnectionLostError(this.address, 'the subscription was closed'));
    this.buffered.length = 0;
    this.bufferedBytes = 0;
    this.onClose();
  }

  /** Whether a waiter takes the message; a match that throws rejects its own wait, not the transport. */
  private accepts(waiter: Waiter, message: Message): boolean {
    try {
      return waiter.match(message);
    } catch (error) {
      this.waiters.delete(waiter);
      waiter.reject(error instanceof Error ? error : new Error(String(error)));
      return false;
    }
  }
}
