/** ProblemList: the problems of a refused file or answer, one per line in a monospace font, as the parser words them. */
export function ProblemList({ problems }: { problems: readonly string[] }) {
  return (
    <ul>
      {problems.map((p, i) => (
        <li key={i} className="mono">
          {p}
        </li>
      ))}
    </ul>
  );
}
