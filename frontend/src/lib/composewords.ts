// Words of the Compose view that depend on a number.

/** sendLabel is the broadcast's Send button for n sites. */
export function sendLabel(n: number): string {
  return n === 1 ? 'Send to 1 site' : `Send to ${n} sites`;
}
