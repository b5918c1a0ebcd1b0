/**
 * Lists in words, as the verdict and its companions write them ("a, b and c"): one place, so
 * every sentence cuts a long list the same way.
 */
/** "a", "a and b", "a, b and c", "a, b, c and 2 more". */
export function listWords(names: string[], most = 3): string {
  const shown = names.length > most ? [...names.slice(0, most), `${names.length - most} more`] : names;
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}
