/** A message for the whole form (a refusal that names no field, a conflict). */
export function FormProblem({ text }: { text: string | null }) {
  return (
    <div className="admin-problem" role="alert">
      {text && <p>{text}</p>}
    </div>
  );
}
