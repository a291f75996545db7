/** Media type helpers shared by the operation index and body encoding. */

/** The media type without parameters, lower-cased: `Application/JSON; charset=utf-8` -> `application/json`. */
export function mediaTypeEssence(contentType: string): string {
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** Whether a media type is JSON proper: `application/json` or a `+json` suffix type. */
export function isJsonMediaType(contentType: string): boolean {
  const essence = mediaTypeEssence(contentType);
  return essence === 'application/json' || essence.endsWith('+json');
}
