// The length of an agent's prompt as an approval states it, counted as the
// backend counts it (safetext.Count): characters are code points, a final
// newline ends the last line rather than starting another.
export function promptLength(text: string): string {
  if (!text) return '0 characters, 0 lines';
  const chars = [...text].length;
  let lines = text.split('\n').length;
  if (text.endsWith('\n')) lines--;
  return `${chars} ${chars === 1 ? 'character' : 'characters'}, ${lines} ${lines === 1 ? 'line' : 'lines'}`;
}
