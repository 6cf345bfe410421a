/** What stops the order as it is (tickets that ran out, a coupon taken off), under its summary; nothing when all is well. */
export function OrderProblems({ problems }: { problems: string[] }) {
  if (!problems.length) return null;
  return (
    <ul role="alert" className="mt-3 list-disc pl-5 text-sm text-red-600 dark:text-red-400">
      {problems.map((p) => (
        <li key={p}>{p}</li>
      ))}
    </ul>
  );
}
