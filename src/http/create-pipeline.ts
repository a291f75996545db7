/** The request pipeline every command sends through: one got instance, keep-alive agents. */

import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Got } from 'got';
import { dropCredentialsOnCrossOrigin } from './redirect-credentials.js';
import { sendWithRetries, type SendSettings } from './send-with-retries.js';
import type { HttpRequest, HttpResponse, PipelineOptions, SendOptions } from './types.js';

export interface Pipeline {
  /** Resolves for any HTTP status; rejects only with TransportError (or an error thrown by the request's auth hook). */
  send(req: HttpRequest, opts?: SendOptions): Promise<HttpResponse>;
  /** Destroys the keep-alive agents so the process can exit. */
  close(): void;
}

const MIB = 1024 * 1024;

/** A pipeline with the given options over defaults (30 s timeout, 2 retries, 50 MiB cap); never throws. */
export function createPipeline(options: Partial<PipelineOptions> = {}): Pipeline {
  const settings: SendSettings = {
    timeoutMs: options.timeoutMs ?? 30_000,
    retry: options.retry ?? 2,
    retryUnsafe: options.retryUnsafe ?? false,
    maxResponseBytes: options.maxResponseBytes ?? 50 * MIB,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
  };
  const userAgent = options.userAgent ?? 'tool';
  const agents = options.agents ?? { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  let client: Got | undefined;
  let loading: Promise<Got> | undefined;

  // got costs ~100 ms to import; commands that never send (validate, dry-run) should not pay it.
  const loadClient = async (): Promise<Got> => {
    const { default: got } = await import('got');
    client = got.extend({
      agent: agents,
      throwHttpErrors: false,
      retry: { limit: 0 },
      // No got timeout: send-once.ts times each attempt with one timer of its own.
      followRedirect: true,
      maxRedirects: 10,
      headers: { 'user-agent': userAgent },
      hooks: { beforeRedirect: [dropCredentialsOnCrossOrigin] },
    });
    return client;
  };

  return {
    send(req, opts) {
      // Once got is loaded, no extra await between the caller and the request.
      if (client) return sendWithRetries(client, req, settings, opts?.signal, opts?.onRetry);
      return (loading ??= loadClient()).then((got) => sendWithRetries(got, req, settings, opts?.signal, opts?.onRetry));
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
