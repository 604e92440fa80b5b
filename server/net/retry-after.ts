/** `Retry-After` (seconds, or an HTTP date) in ms from now; undefined when absent or unparsable. */
export function retryAfterMs(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
