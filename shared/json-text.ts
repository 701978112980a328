/** A response body's JSON, or undefined when it is empty or not JSON (an HTML error page, a proxy's text): the caller reads the status instead. */
export function jsonOrUndefined(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
