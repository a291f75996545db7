/**
 * The secrets the `--inspect` live view masks in the text it shows (step failure reasons, the
 * failure message): the values of secret inputs, and every credential a step's request carried,
 * learnt from the run's events as each request is sent, as the stderr reporter and the trace learn them.
 */
import { credentialParts, isSecretName, secretValuesOf } from '../output/redact.js';
import { printableLine } from '../output/printable.js';
import type { HttpRequest } from '../http/types.js';
import type { RunEvents } from './run-events.js';

export interface LiveSecrets {
  /** One printable line with every known secret, and anything shaped like a credential, as `***`. */
  mask(text: string): string;
  /** Learns the credentials of each request on `bus` before its reason is shown. */
  subscribe(bus: RunEvents): void;
}

/** Starts with the values of the secret inputs (--input-env, secret-named inputs). */
export function createLiveSecrets(secrets: readonly string[]): LiveSecrets {
  const known = new Set(secrets);
  const values = { values: known };
  const remember = (request: HttpRequest) => {
    for (const value of secretValuesOf(request)) known.add(value);
    // A step may send its own Authorization (or another secret-named header) from an input.
    for (const name in request.headers) if (isSecretName(name)) for (const part of credentialParts(request.headers[name]!)) known.add(part);
  };
  return {
    mask: (text) => printableLine(text, values),
    subscribe(bus) {
      bus.on('request.dryRun', (event) => remember(event.request));
      bus.on('step.response', (event) => remember(event.request));
    },
  };
}
