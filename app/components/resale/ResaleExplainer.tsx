/** What happens to the money and the QR in the official resale, said before the seller confirms (docs/resale.md). */
export function ResaleExplainer({ faceValue, maxPrice, feePercent, payoutMethod }: { faceValue: string; maxPrice: string; feePercent: number; payoutMethod: "provider" | "organizer" | null }) {
  return (
    <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
      <li>
        Pagaste {faceValue} por esta entrada. En la reventa oficial nadie cobra más de lo que pagó: podés pedir hasta {maxPrice}.
      </li>
      <li>Mientras nadie la compre, tu QR sigue sirviendo y podés cancelar la publicación cuando quieras.</li>
      <li>Cuando alguien la compra, tu QR deja de servir en ese momento y la otra persona recibe una entrada nueva con otro QR.</li>
      <li>
        {feePercent > 0 ? `Te devolvemos el precio menos el ${feePercent.toLocaleString("es-AR")} % de cargo por reventa que fijó el organizador. ` : "Te devolvemos el precio completo. "}
        {payoutMethod === "organizer"
          ? "Como no pagaste con Mercado Pago, te lo devuelve el organizador por transferencia."
          : "Vuelve a tu medio de pago de Mercado Pago; según tu banco, puede tardar unos días en verse."}
      </li>
      <li>El cargo por servicio de tu compra no se devuelve.</li>
    </ul>
  );
}
