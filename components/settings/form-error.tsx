/**
 * A settings form's error, announced (`role="alert"`): the server's message or the field
 * check's, which says what to do. Renders nothing when `error` is null.
 */
export function FormError({ error, testId, small = false }: { error: string | null; testId?: string; small?: boolean }) {
  if (!error) return null;
  return (
    <p className={small ? "error small" : "error"} role="alert" data-testid={testId}>
      {error}
    </p>
  );
}
