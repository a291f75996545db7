/** An XML `requestBody.replacements` entry (v2): the nodes an XPath selects get new text. */
import type { XPathLibrary } from './criterion-libraries.js';
import { TimeLimitError } from './time-limit.js';
import { evaluateWithinLimit, firstLine, MAX_XML_CHARS, parseXml, stoppedXPath } from './xpath-criterion.js';

/** Thrown by setXmlText: the payload is not XML, or a target is not an XPath or selects nothing; `target` is the one at fault, if any. */
export class XmlReplaceError extends Error {
  override name = 'XmlReplaceError';
  constructor(
    message: string,
    readonly target?: string,
  ) {
    super(message);
  }
}

const ELEMENT = 1;
const ATTRIBUTE = 2;

/** What this module touches of an xmldom node (the project has no DOM typings). */
interface XmlNode {
  nodeType: number;
  textContent: string | null;
  value?: string;
  data?: string;
}

/**
 * Parses `xml` once, applies the replacements in order (each selected element's content becomes
 * the text, an attribute's or a text node's value becomes it) and serialises the result. The
 * parser never fetches external entities nor expands DTD entities (see xpath-criterion.ts).
 * Throws XmlReplaceError when the payload is not well-formed XML or larger than 5 MiB, or a
 * target does not evaluate (within XPATH_TIME_LIMIT_MS) or selects no node.
 */
export function setXmlText(library: XPathLibrary, xml: string, replacements: ReadonlyArray<{ target: string; text: string }>): string {
  if (xml.length > MAX_XML_CHARS) throw new XmlReplaceError(`the XML payload is larger than ${MAX_XML_CHARS / 1024 / 1024} MiB`);
  let document: unknown;
  try {
    document = parseXml(library, xml);
  } catch (error) {
    throw new XmlReplaceError(`the payload is not well-formed XML: ${firstLine(error)}`);
  }
  const { fontoxpath } = library;
  for (const { target, text } of replacements) {
    let nodes: XmlNode[];
    try {
      nodes = evaluateWithinLimit(() => fontoxpath.evaluateXPathToNodes(target, document as never, null, null, { language: fontoxpath.evaluateXPath.XPATH_3_1_LANGUAGE }) as unknown as XmlNode[]);
    } catch (error) {
      throw new XmlReplaceError(error instanceof TimeLimitError ? stoppedXPath(error) : firstLine(error), target);
    }
    if (nodes.length === 0) throw new XmlReplaceError('it selects no node of the payload', target);
    for (const node of nodes) {
      if (node.nodeType === ELEMENT) node.textContent = text;
      else if (node.nodeType === ATTRIBUTE) node.value = text;
      else if (typeof node.data === 'string') node.data = text;
      else throw new XmlReplaceError(`it selects a node (type ${node.nodeType}) that has no text to set`, target);
    }
  }
  return new library.xmldom.XMLSerializer().serializeToString(document as never);
}
