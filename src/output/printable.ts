/**
 * Making untrusted text safe for a terminal: server messages, bodies shown on a TTY, exception
 * text. Escape sequences and control characters are removed, secrets masked (redact.ts).
 */

import { redactText, type KnownSecrets } from './redact.js';

/** ESC-introduced sequences: CSI (`ESC [ ... final`), OSC/DCS/SOS/PM/APC strings up to their terminator (or the end), and two-byte escapes. */
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]?|\u001b[\]PX^_][\s\S]*?(?:\u0007|\u001b\\|$)|\u001b[ -/]*[0-~]?|\u009b[0-?]*[ -/]*[@-~]?|[\u0090\u0098\u009d\u009e\u009f][\s\S]*?(?:\u0007|\u009c|\u001b\\|$)/g;
/** C0 (tab, line feed and carriage return are handled by the callers), DEL and C1. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** Bidirectional overrides and isolates, which can make a terminal show text in another order than it is. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** One line of text from outside: escapes and control characters removed, whitespace runs as one space, secrets masked, at most `max` characters. */
export function printableLine(text: string, known: KnownSecrets = {}, max = Infinity): string {
  const line = redactText(stripControls(text.replace(/[\t\n\r\u2028\u2029]/g, ' ')), known)
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max)}...` : line;
}

/** A block of text from outside (a response body on a terminal): as printableLine, but line feeds and tabs are kept. */
export function printableText(text: string, known: KnownSecrets = {}): string {
  return redactText(stripControls(text.replace(/\r\n?/g, '\n').replace(/[\u2028\u2029]/g, '\n')), known);
}

/** The text with escape sequences, control characters other than tab and line feed, and bidi controls removed; nothing else changes. */
export function stripControls(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS, '').replace(BIDI, '');
}
