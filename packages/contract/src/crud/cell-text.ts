/** SPEC section 9: the ellipsis filter's default length, for long text in list cells. */
export const ELLIPSIS_LENGTH = 25;

/** The first `length` characters of a text and '...' when it is longer (the origin's ellipsis filter); whole characters, never half a pair. */
export function ellipsis(text: string, length = ELLIPSIS_LENGTH): string {
  const characters = Array.from(text);
  return characters.length > length ? `${characters.slice(0, length).join('')}...` : text;
}
