/** Messages shared by the event page and the checkout. */
export function ReferralBanner({ referrer }: { referrer: { firstName: string; lastName: string } }) {
  const name = `${referrer.firstName} ${referrer.lastName}`.trim();
  return (
    <p role="status" data-referral="" className="rounded-lg border border-secondary-500/40 bg-secondary-500/10 px-4 py-2 text-sm">
      Te invitó <strong>{name}</strong>
    </p>
  );
}

export function DroppedNotice({ messages }: { messages: string[] }) {
  if (!messages.length) return null;
  return (
    <div role="status" className="rounded-lg border border-amber-500/50 bg-amber-500/10 px-4 py-3 text-sm">
      <p className="font-bold">Actualizamos tu compra</p>
      <ul className="mt-1 list-disc pl-5">
        {messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
    </div>
  );
}
