/**
 * The name an operator action goes by in the results and in `undo`: its own, or its
 * effect's kind and its 1-based position in the list (block-1). One definition, used by the
 * model and by the scenario checks that names are unique.
 */
export function actionName(a: { name?: string; do: { kind: string } }, index: number): string {
  return a.name ?? `${a.do.kind}-${index + 1}`;
}
