export interface OrderLine {
  key: string;
  name: string;
  qty: number;
  /** Formatted money. */
  unitPrice: string;
  subtotal: string;
}

/** "2 × Platea · $ 20.000 c/u · $ 40.000": the lines of a cart or an order. */
export function OrderLines({ lines }: { lines: OrderLine[] }) {
  return (
    <ul className="mt-3 divide-y divide-[var(--border)]">
      {lines.map((line) => (
        <li key={line.key} data-ticket={line.name} className="flex items-baseline justify-between gap-3 py-2">
          <span>
            <span className="font-bold">{line.qty}</span> × {line.name}
            <span className="block text-xs text-[var(--muted)]">{line.unitPrice} c/u</span>
          </span>
          <span className="font-medium">{line.subtotal}</span>
        </li>
      ))}
    </ul>
  );
}
